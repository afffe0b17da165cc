import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { drainServer } from "#cli/graceful-shutdown.ts";

/** A server whose answer takes `ms`, written in ten parts, as a stream is; and one open stream to end. */
async function slowServer(ms: number) {
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    open.add(res);
    let sent = 0;
    const tick = setInterval(() => {
      if (res.writableEnded) return clearInterval(tick);
      res.write(`event: token\ndata: ${sent}\n\n`);
      if (++sent === 10) {
        clearInterval(tick);
        open.delete(res);
        res.end("event: done\ndata: {}\n\n");
      }
    }, ms / 10);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const endStreams = () => {
    for (const res of open) res.end("event: error\ndata: {\"code\":\"server_shutting_down\"}\n\nevent: done\ndata: {}\n\n");
    const n = open.size;
    open.clear();
    return n;
  };
  return { server, url, endStreams };
}

describe("drainServer", () => {
  it("lets a stream in flight finish, and accepts no new connection meanwhile", async () => {
    const { server, url, endStreams } = await slowServer(1_000);
    const res = await fetch(url);
    const body = res.text();
    const drained = drainServer({ server, graceMs: 5_000, endStreams });
    await new Promise((r) => setTimeout(r, 100));
    await expect(fetch(url, { headers: { Connection: "close" } })).rejects.toThrow();
    expect(await body).toContain("event: done");
    expect((await body).match(/event: token/g)).toHaveLength(10);
    expect(await drained).toEqual({ drained: true, streamsEnded: 0 });
  });

  it("ends a stream still running when the grace is over with an error event", async () => {
    const { server, url, endStreams } = await slowServer(10_000);
    const res = await fetch(url);
    const body = res.text();
    const started = Date.now();
    expect(await drainServer({ server, graceMs: 500, endStreams, cutAfterMs: 200 })).toEqual({ drained: false, streamsEnded: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await body).toMatch(/event: error\ndata: \{"code":"server_shutting_down"\}\n\nevent: done/);
  });
});

/**
 * POST /api/chat-template/render over real sockets from two client addresses (127.0.0.2 floods,
 * 127.0.0.3 renders normally): the flooder gets 429 with Retry-After once over its cap, the other
 * client is answered promptly. The server here is a bare node:http adapter around the route
 * action that passes the socket address as server/app.ts does; the full server is covered by
 * tests/e2e/chat-template-api.test.ts. It lives with the browser journeys because that phase runs
 * one file at a time: the 500 ms bound the issue asks for is measured without other test files
 * competing for the two cores.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { setupService } from "#tests/e2e/support/journey.ts";
import { CHAT_TEMPLATE_LIMITS } from "#app/chat-template/sandbox.server.ts";
import { action } from "#app/routes/api.chat-template.render.ts";
import { createRequestContext } from "#app/utils/request-context.ts";

/** The render route's action behind a plain HTTP server, so each request comes from its own source address. */
const server = setupService("The render route's server", async () => {
  const listener = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method ?? "GET", headers, body: Buffer.concat(chunks) });
      const response = await action({ request, context: createRequestContext({ clientAddress: req.socket.remoteAddress ?? "" }) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  return { port: (listener.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => listener.close(() => resolve())) };
}, (s) => s.close());

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { text?: string; error?: { message: string; kind?: string; retryAfterSeconds?: number } };
  ms: number;
}

/** One POST from `from`, on its own connection so the server sees that source address. */
function post(from: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        localAddress: from,
        agent: false,
        method: "POST",
        path: "/api/chat-template/render",
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          const retry = res.headers["retry-after"];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: typeof retry === "string" ? retry : undefined,
            body: JSON.parse(text) as Answer["body"],
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const messages = [{ role: "user", content: "Hi" }];
const hostile = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";

describe("POST /api/chat-template/render under a flood, over HTTP", () => {
  // A timing bound on a shared 2-core machine: a retry absorbs a stall from outside the test (the
  // sandbox's behaviour is the same on every try), and the log line shows each try's figures.
  it("answers the flooder 429 with Retry-After past its cap, and another address within 500 ms", { retry: 2 }, async () => {
    // Warm the shared sandbox's workers so the first measured render does not include their start.
    expect((await post("127.0.0.3", { template: "ok", messages })).status).toBe(200);

    const flood = Array.from({ length: 30 }, () => post("127.0.0.2", { template: hostile, messages }));
    // Let the flood reach the sandbox first, so the normal render arrives behind it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const normal = await post("127.0.0.3", { template: "{{ messages[0].content }}", messages });
    const flooded = await Promise.all(flood);

    expect(normal.status).toBe(200);
    expect(normal.body).toEqual({ text: "Hi", templateName: null });

    const refused = flooded.filter((a) => a.status === 429);
    const stopped = flooded.filter((a) => a.status === 422);
    expect(refused.length + stopped.length).toBe(30);
    expect(refused.length).toBe(30 - CHAT_TEMPLATE_LIMITS.maxPerClient);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(answer.body.error?.retryAfterSeconds).toBe(Number(answer.retryAfter));
      expect(answer.body.error?.message).toMatch(/limit per client.*Retry after \d+ s/);
    }
    for (const answer of stopped) expect(answer.body.error?.kind).toBe("timeout");
    const drain = Math.max(...flooded.map((a) => a.ms));
    console.log(`render API flood: 30 hostile from one address drained in ${drain.toFixed(0)} ms; normal render from another address ${normal.ms.toFixed(0)} ms`);
    // The bound (the one timed assertion, asked for by issue 12).
    expect(normal.ms).toBeLessThan(500);
  });
});

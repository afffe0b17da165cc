import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { loopbackUrl, warmUp } from "#cli/warm-up.ts";

describe("the server's warm-up", () => {
  it("reaches the server on loopback whatever it listens on", () => {
    expect(loopbackUrl({ address: "::", family: "IPv6", port: 3000 })).toBe("http://[::1]:3000");
    expect(loopbackUrl({ address: "0.0.0.0", family: "IPv4", port: 3000 })).toBe("http://127.0.0.1:3000");
    expect(loopbackUrl({ address: "127.0.0.1", family: "IPv4", port: 8080 })).toBe("http://127.0.0.1:8080");
    expect(loopbackUrl({ address: "::1", family: "IPv6", port: 1 })).toBe("http://[::1]:1");
  });

  it("asks for listing pages and API calls over HTTP, and shrugs off failing answers", async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url ?? "");
      // Every other answer fails: the warm-up goes on regardless.
      res.writeHead(seen.length % 2 ? 500 : 200).end("x");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      await warmUp(loopbackUrl(server.address() as AddressInfo));
    } finally {
      server.close();
    }
    expect(seen.some((u) => u.startsWith("/models?search="))).toBe(true);
    expect(seen.some((u) => u.startsWith("/api/models"))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(5);
  });
});

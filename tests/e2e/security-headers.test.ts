import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nonceOf } from "#tests/e2e/support/csp-nonce.ts";
import { type TestServer, startTestServer } from "#tests/e2e/support/server.ts";
import { contentSecurityPolicy } from "#server/security-headers.ts";

// The headers as the real server sends them, on each kind of response it gives: documents,
// React Router data, /api JSON (found and not found), static files, and POST /api/inference,
// which is answered before the rest of the middleware (ADR 0008).

const EXPECTED = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
} as const;

function expectSecurityHeaders(res: Response, label: string): void {
  for (const [name, value] of Object.entries(EXPECTED)) expect(res.headers.get(name), `${label}: ${name}`).toBe(value);
  expect(res.headers.get("permissions-policy"), `${label}: permissions-policy`).toMatch(/camera=\(\).*microphone=\(self\)/);
  expect(res.headers.get("content-security-policy"), `${label}: content-security-policy`).toBe(contentSecurityPolicy(nonceOf(res)));
}

describe("security headers on every response", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("documents carry them, and every inline script carries the response's own nonce", async () => {
    const seen = new Set<string>();
    for (const path of ["/", "/models?search=llama", "/tasks/text-generation", "/chat-template", "/settings", "/no/such-model-here"]) {
      const res = await fetch(server.url + path);
      expectSecurityHeaders(res, path);
      const nonce = nonceOf(res);
      seen.add(nonce);
      const html = await res.text();
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    }
    expect(seen.size).toBe(6);
  });

  it("static assets, React Router data and /api JSON carry them", async () => {
    const html = await (await fetch(server.url + "/")).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    for (const path of [asset!, "/favicon.svg", "/models.data", "/api/models?limit=1", "/api/tasks", "/api/no-such-endpoint"]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBeLessThan(500);
      expectSecurityHeaders(res, path);
      await res.arrayBuffer();
    }
  });

  it("the POST /api/inference fast path carries them", async () => {
    const res = await fetch(server.url + "/api/inference", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expectSecurityHeaders(res, "POST /api/inference");
    await res.arrayBuffer();
  });
});

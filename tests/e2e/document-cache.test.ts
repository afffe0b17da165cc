/**
 * /models documents are kept and sent again by what they are made of (ADR 0035), over HTTP
 * against the real server: a second request gets the same document with its own CSP nonce, a
 * theme gets its own document, and an import's new rows show at once. The Server-Timing header
 * says whether a document was rendered or kept.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { themeCookie } from "#app/utils/theme.ts";
import { importWithCli } from "#tests/e2e/support/import-cli.ts";
import { nonceOf } from "#tests/e2e/support/csp-nonce.ts";
import { type TestServer, startTestServer } from "#tests/e2e/support/server.ts";

async function page(server: TestServer, url: string, cookie?: string): Promise<{ nonce: string; html: string; status: number; document: string | null }> {
  const res = await fetch(server.url + url, { headers: cookie ? { cookie } : {} });
  const document = /document;desc="(\w+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? null;
  return { nonce: nonceOf(res), status: res.status, html: await res.text(), document };
}

describe("kept /models documents", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends a view again as it was rendered, with the response's own nonce on every script", async () => {
    const first = await page(server, "/models?search=bert&sort=likes");
    const second = await page(server, "/models?search=bert&sort=likes");
    expect(first.status).toBe(200);
    expect([first.document, second.document]).toEqual(["rendered", "kept"]);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.html).toBe(first.html.split(`nonce="${first.nonce}"`).join(`nonce="${second.nonce}"`));
    const scripts = second.html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${second.nonce}"`);
    expect(second.html).not.toContain(first.nonce);
  });

  it("keeps each theme's own document", async () => {
    const dark = themeCookie("dark").split(";")[0]!;
    const light = themeCookie("light").split(";")[0]!;
    for (const expected of ["rendered", "kept"]) {
      const d = await page(server, "/models?sort=downloads", dark);
      const l = await page(server, "/models?sort=downloads", light);
      const system = await page(server, "/models?sort=downloads");
      expect(d.html).toMatch(/<html lang="en" class="dark"/);
      expect(l.html).toMatch(/<html lang="en" class="light"/);
      expect(system.html).toMatch(/<html lang="en"(?! class=)/);
      expect([d.document, l.document, system.document]).toEqual([expected, expected, expected]);
    }
  });

  it("shows a model imported after the view was kept", async () => {
    const view = "/models?search=kept-document-check";
    const before = await page(server, view);
    expect(before.html).not.toContain("modelyard-e2e/kept-document-check");
    // Asked again, so the view is answered from the kept document when the import lands.
    const again = await page(server, view);
    expect(again.document).toBe("kept");
    expect(again.html).toBe(before.html.split(`nonce="${before.nonce}"`).join(`nonce="${again.nonce}"`));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-kept-document-"));
    try {
      const file = path.join(dir, "one.jsonl");
      fs.writeFileSync(file, `${JSON.stringify({ id: "modelyard-e2e/kept-document-check", pipeline_tag: "text-classification", downloads: 3 })}\n`);
      await importWithCli(server.databaseUrl, [file]);
      const after = await page(server, view);
      expect(after.html).toContain("modelyard-e2e/kept-document-check");
      expect(after.html).toMatch(/\b1 model\b/);
      expect(after.document).toBe("rendered");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

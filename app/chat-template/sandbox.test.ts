import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { ChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";

const messages = [{ role: "user", content: "Hi" }];
const sandboxes: ChatTemplateSandbox[] = [];
function sandbox(options: ConstructorParameters<typeof ChatTemplateSandbox>[0] = {}) {
  const created = new ChatTemplateSandbox(options);
  sandboxes.push(created);
  return created;
}
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
});

const nestedLoops = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";

describe("ChatTemplateSandbox", () => {
  it("renders in a worker thread", async () => {
    const s = sandbox();
    const result = await s.render({ template: "{% for m in messages %}{{ m.role }}={{ m.content }}{% endfor %}", messages });
    expect(result).toEqual({ ok: true, text: "user=Hi" });
  });

  it("refuses range(10**9) like Jinja's sandbox instead of allocating it", async () => {
    const s = sandbox();
    const result = await s.render({ template: "{% for i in range(10**9) %}x{% endfor %}", messages });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: "runtime", line: 1, column: 13 });
    expect(result.error.message).toContain("MAX_RANGE");
  });

  it("stops a render that runs past the time limit, replaces the worker, and keeps serving", async () => {
    const s = sandbox({ timeoutMs: 300 });
    const result = await s.render({ template: nestedLoops, messages });
    expect(result).toEqual({
      ok: false,
      error: { message: "Rendering took longer than 300ms and was stopped", kind: "timeout", line: null, column: null, excerpt: null },
    });
    expect(s.restarts).toBe(1);
    expect(await s.render({ template: "still {{ 'alive' }}", messages })).toEqual({ ok: true, text: "still alive" });
  });

  it("survives an infinitely recursive macro", async () => {
    const s = sandbox({ timeoutMs: 500 });
    const result = await s.render({ template: "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", messages });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(["runtime", "timeout", "limit"]).toContain(result.error.kind);
    expect(await s.render({ template: "ok", messages })).toEqual({ ok: true, text: "ok" });
  });

  it("queues renders behind a stuck one on a single worker", async () => {
    const s = sandbox({ timeoutMs: 300, poolSize: 1 });
    const [stuck, next] = await Promise.all([
      s.render({ template: nestedLoops, messages }),
      s.render({ template: "{{ 1 + 1 }}", messages }),
    ]);
    expect(stuck.ok).toBe(false);
    expect(next).toEqual({ ok: true, text: "2" });
  });

  it("caps the template, input and output sizes", async () => {
    const s = sandbox({ maxTemplateBytes: 100, maxInputBytes: 200, maxOutputChars: 1000 });
    const big = await s.render({ template: "x".repeat(101), messages });
    expect(big).toMatchObject({ ok: false, error: { kind: "limit", message: "The template is larger than 100 bytes" } });
    const bigInput = await s.render({ template: "x", messages: [{ role: "user", content: "y".repeat(300) }] });
    expect(bigInput).toMatchObject({ ok: false, error: { kind: "limit" } });
    const bigOutput = await s.render({ template: "{% for i in range(2000) %}x{% endfor %}", messages });
    expect(bigOutput).toMatchObject({
      ok: false,
      error: { kind: "limit", message: "The rendered text is longer than 1000 characters" },
    });
  });

  it("answers 'unavailable' when the queue is full and after close", async () => {
    const s = sandbox({ timeoutMs: 300, maxQueue: 1 });
    // Once the worker is up, the first render runs at once and the second waits in the queue.
    await s.render({ template: "warm", messages });
    const first = s.render({ template: nestedLoops, messages });
    const second = s.render({ template: "a", messages });
    const third = await s.render({ template: "b", messages });
    expect(third).toMatchObject({ ok: false, error: { kind: "unavailable" } });
    expect((await first).ok).toBe(false);
    expect(await second).toEqual({ ok: true, text: "a" });
    await s.close();
    expect(await s.render({ template: "c", messages })).toMatchObject({ ok: false, error: { kind: "unavailable" } });
  });
});

describe("ChatTemplateSandbox in a Vite SSR bundle", () => {
  it("starts its worker from the bundled module", async () => {
    // The production server runs build/server/index.js; the worker must not depend on source files.
    const root = path.resolve(import.meta.dirname, "../..");
    // Inside the project like build/server/, so node_modules resolves the same way.
    const cacheDir = path.join(root, "node_modules/.cache");
    mkdirSync(cacheDir, { recursive: true });
    const outDir = mkdtempSync(path.join(cacheDir, "chat-template-ssr-"));
    try {
      await build({
        root,
        configFile: false,
        logLevel: "silent",
        plugins: [tsconfigPaths({ root })],
        build: {
          ssr: path.join(root, "app/chat-template/sandbox.server.ts"),
          outDir,
          emptyOutDir: true,
          rollupOptions: { output: { entryFileNames: "sandbox.js" } },
        },
      });
      const bundled = (await import(pathToFileURL(path.join(outDir, "sandbox.js")).href)) as {
        ChatTemplateSandbox: typeof ChatTemplateSandbox;
      };
      const s = new bundled.ChatTemplateSandbox({ timeoutMs: 2000 });
      try {
        expect(await s.render({ template: "{{ messages[0].content }}{{ raise_exception('no') if false }}", messages })).toEqual({
          ok: true,
          text: "Hi",
        });
      } finally {
        await s.close();
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

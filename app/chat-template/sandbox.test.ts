import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { workerEntryPlugin } from "#server/worker-entry-plugin.ts";
import { afterAll, describe, expect, it } from "vitest";
import { build } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import type { RenderChatTemplateResult } from "#app/chat-template/render-types.ts";
import { ChatTemplateSandbox, defaultPoolSize } from "#app/chat-template/sandbox.server.ts";

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Renders `template` once a renderer is up: on a loaded machine starting a worker (and its first
 * render) can take longer than a short deadline. The tests that use this are
 * about what happens once a render runs, not about how fast a worker starts.
 */
async function renderWhenUp(s: ChatTemplateSandbox, template: string): Promise<RenderChatTemplateResult> {
  let result = await s.render({ template, messages });
  // Only for templates that cannot run long: their timeout is a cold worker, never the template.
  for (let tries = 1; !result.ok && result.error.kind === "timeout" && tries < 50; tries++) result = await s.render({ template, messages });
  return result;
}

const nestedLoops = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";

describe("ChatTemplateSandbox", () => {
  it("sizes its default pool to the cores, two to four workers", () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultPoolSize(cores))).toEqual([2, 2, 3, 4, 4, 4]);
  });

  it("renders in a worker thread", async () => {
    const s = sandbox();
    const result = await s.render({ template: "{% for m in messages %}{{ m.role }}={{ m.content }}{% endfor %}", messages });
    expect(result).toEqual({ ok: true, text: "user=Hi" });
  });

  it("does not count a worker's start against a render asked for before any worker was ready", async () => {
    const s = sandbox({ timeoutMs: 1000 });
    const asked = s.render({ template: "{{ messages[0].content }}", messages });
    // Holding this thread past the limit holds back the workers' "ready" as well (it is handled
    // here): the render's one-second timer is due before any worker can be seen to be up, as on a
    // machine too loaded to start one within the limit. It used to be answered as a timeout.
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      // busy: nothing else runs on this thread
    }
    expect(await asked).toEqual({ ok: true, text: "Hi" });
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
    // A renderer that is up first: on a loaded machine a worker's start can take the whole 300 ms,
    // and this test is about a render that runs too long, not one that waited for a renderer.
    expect(await renderWhenUp(s, "{{ 'ready' }}")).toEqual({ ok: true, text: "ready" });
    const restarts = s.restarts;
    const result = await s.render({ template: nestedLoops, messages });
    expect(result).toEqual({
      ok: false,
      error: { message: "Rendering took longer than 300ms and was stopped", kind: "timeout", line: null, column: null, excerpt: null },
    });
    expect(s.restarts).toBe(restarts + 1);
    expect(await renderWhenUp(s, "still {{ 'alive' }}")).toEqual({ ok: true, text: "still alive" });
  });

  it("survives an infinitely recursive macro", async () => {
    const s = sandbox({ timeoutMs: 500 });
    const result = await s.render({ template: "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", messages });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(["runtime", "timeout", "limit"]).toContain(result.error.kind);
    expect(await s.render({ template: "ok", messages })).toEqual({ ok: true, text: "ok" });
  });

  it("answers a render that waited past its deadline behind a stuck one as a timeout, without running it", async () => {
    const s = sandbox({ timeoutMs: 300, poolSize: 1 });
    expect(await renderWhenUp(s, "{{ 0 }}")).toEqual({ ok: true, text: "0" });
    const restarts = s.restarts;
    const [stuck, next] = await Promise.all([
      s.render({ template: nestedLoops, messages }),
      s.render({ template: "{{ 1 + 1 }}", messages }),
    ]);
    expect(stuck).toMatchObject({ ok: false, error: { kind: "timeout" } });
    expect(next).toMatchObject({ ok: false, error: { kind: "timeout" } });
    if (next.ok) return;
    expect(next.error.message).toContain("did not run");
    // Only the stuck render's worker was stopped; the waiting one never reached a worker.
    expect(s.restarts).toBe(restarts + 1);
    expect(await renderWhenUp(s, "{{ 1 + 1 }}")).toEqual({ ok: true, text: "2" });
  });

  it("keeps a worker free for another client while one client's render is stuck", async () => {
    const s = sandbox({ timeoutMs: 2000, poolSize: 2 });
    const settled: string[] = [];
    const stuck = s.render({ template: nestedLoops, messages }, { client: "a" }).finally(() => settled.push("stuck"));
    // Client a may hold one of the two workers, so its second render waits instead of taking the other.
    const queuedBehind = s.render({ template: "{{ 'a2' }}", messages }, { client: "a" }).finally(() => settled.push("a2"));
    const other = await s.render({ template: "{{ 'b' }}", messages }, { client: "b" });
    expect(other).toEqual({ ok: true, text: "b" });
    // Had a2 taken the free worker, it would have finished before b, which came after it.
    expect(settled).toEqual([]);
    expect(await stuck).toMatchObject({ ok: false, error: { kind: "timeout" } });
    // a2's deadline and the stuck render's end at about the same moment: it either timed out
    // waiting, or ran on the worker the stuck render gave back. Never before that.
    const a2 = await queuedBehind;
    if (a2.ok) {
      expect(a2.text).toBe("a2");
      expect(settled).toEqual(["stuck", "a2"]);
    } else {
      expect(a2.error.kind).toBe("timeout");
    }
  });

  it("takes turns across clients instead of serving the oldest render first", async () => {
    const s = sandbox({ timeoutMs: 5000, poolSize: 1 });
    await s.render({ template: "warm", messages });
    const order: string[] = [];
    const track = (name: string, client: string, template: string) =>
      s.render({ template, messages }, { client }).then((result) => {
        order.push(name);
        return result;
      });
    // a1 holds the only worker for a moment; a2 and a3 queue before b1 arrives.
    const all = [
      track("a1", "a", "{% for i in range(3000) %}{{ i }}{% endfor %}"),
      track("a2", "a", "a2"),
      track("a3", "a", "a3"),
      track("b1", "b", "b1"),
    ];
    const results = await Promise.all(all);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(order).toEqual(["a1", "a2", "b1", "a3"]);
  });

  it("answers 'busy' with a retry time once a client has maxPerClient renders in progress", async () => {
    const s = sandbox({ timeoutMs: 2000, poolSize: 2, maxPerClient: 2 });
    await s.render({ template: "warm", messages });
    const held = [s.render({ template: nestedLoops, messages }, { client: "a" }), s.render({ template: "x", messages }, { client: "a" })];
    const over = await s.render({ template: "y", messages }, { client: "a" });
    expect(over).toMatchObject({ ok: false, error: { kind: "busy" } });
    if (over.ok) return;
    expect(over.error.message).toContain("limit per client");
    expect(over.error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(over.error.retryAfterSeconds).toBeLessThanOrEqual(2);
    // Another client, and the server's own renders (no client), are not held to a's cap.
    expect(await s.render({ template: "b", messages }, { client: "b" })).toEqual({ ok: true, text: "b" });
    const internal = await Promise.all([1, 2, 3].map((n) => s.render({ template: `{{ ${n} }}`, messages })));
    expect(internal).toEqual([1, 2, 3].map((n) => ({ ok: true, text: String(n) })));
    await Promise.all(held);
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

  it("answers 'busy' when the queue is full and 'unavailable' after close", async () => {
    const s = sandbox({ timeoutMs: 300, maxQueue: 1, poolSize: 1 });
    // Once the worker is up, the first render runs at once and the second waits in the queue.
    expect(await renderWhenUp(s, "warm")).toEqual({ ok: true, text: "warm" });
    const first = s.render({ template: nestedLoops, messages });
    const second = s.render({ template: "a", messages });
    const third = await s.render({ template: "b", messages });
    expect(third).toMatchObject({ ok: false, error: { kind: "busy", retryAfterSeconds: 1 } });
    expect((await first).ok).toBe(false);
    // It waited for the stuck render until its own deadline.
    expect(await second).toMatchObject({ ok: false, error: { kind: "timeout" } });
    await s.close();
    expect(await s.render({ template: "c", messages })).toMatchObject({ ok: false, error: { kind: "unavailable" } });
  });
});

describe("ChatTemplateSandbox under a flood from one client", () => {
  it("answers another client's renders while one client floods it with templates that never finish", async () => {
    // The production limits: default pool (sized to the cores), 1 s deadline, 4 renders per client.
    const s = sandbox();
    expect(s.options.poolSize).toBeGreaterThanOrEqual(2);
    await Promise.all(Array.from({ length: s.options.poolSize }, () => s.render({ template: "warm", messages })));

    const flood: Array<Promise<RenderChatTemplateResult>> = [];
    let flooding = true;
    // Thirty at once, then more every 100 ms for the whole run, as a hostile script would.
    const sendWave = (n: number) => {
      for (let i = 0; i < n; i++) flood.push(s.render({ template: nestedLoops, messages }, { client: "flooder" }));
    };
    sendWave(30);
    const waves = (async () => {
      while (flooding) {
        await sleep(100);
        sendWave(5);
      }
    })();

    const latencies: number[] = [];
    const visitor: RenderChatTemplateResult[] = [];
    // Spread over more than two deadlines, so it covers workers being stopped and replaced.
    for (let i = 0; i < 12; i++) {
      await sleep(200);
      const started = performance.now();
      visitor.push(await s.render({ template: "{% for m in messages %}{{ m.role }}: {{ m.content }}{% endfor %}", messages }, { client: "visitor" }));
      latencies.push(performance.now() - started);
    }
    flooding = false;
    await waves;
    const flooded = await Promise.all(flood);

    expect(visitor).toEqual(Array.from({ length: 12 }, () => ({ ok: true, text: "user: Hi" })));
    const busy = flooded.filter((r) => !r.ok && r.error.kind === "busy");
    const timedOut = flooded.filter((r) => !r.ok && r.error.kind === "timeout");
    expect(busy.length + timedOut.length).toBe(flooded.length);
    // Thirty at once is far over the cap of four: most are refused at once, with a retry time.
    expect(busy.length).toBeGreaterThanOrEqual(26);
    for (const r of busy) if (!r.ok) expect(r.error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Of the admitted ones, some waited their whole deadline and never ran (the flooder holds one worker at a time).
    expect(timedOut.some((r) => !r.ok && r.error.message.includes("did not run"))).toBe(true);

    const worst = Math.max(...latencies);
    console.log(
      `sandbox flood: pool ${s.options.poolSize}, ${flooded.length} flood renders (${busy.length} busy, ${timedOut.length} timeout), visitor latency ms: median ${median(latencies).toFixed(0)}, max ${worst.toFixed(0)}`,
    );
    // Every visitor render came back ok, so none waited out the 1 s deadline behind the flood.
    // The 500 ms bound itself is checked over HTTP in tests/e2e/chat-template-flood.test.ts, which
    // runs alone; here other test files share the cores, so the figure is logged, not asserted.
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
        plugins: [tsconfigPaths({ root }), workerEntryPlugin()],
        build: {
          ssr: path.join(root, "app/chat-template/sandbox.server.ts"),
          outDir,
          emptyOutDir: true,
          rollupOptions: { output: { entryFileNames: "sandbox.js" } },
        },
      });
      // The worker is a chunk of this build: the bundled sandbox has no TypeScript beside it to start.
      expect(readdirSync(outDir)).toContain("sandbox-worker.server.js");
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

/**
 * Inference gateway overhead: time to first token and per-token cost of a streamed chat reply
 * through POST /api/inference (the real server, `modelyard serve`), against @huggingface/inference
 * calling the same provider SIMULATOR directly, side by side, at several concurrency levels; then
 * the server's RSS before and after a soak.
 *
 *   npm run bench:gateway -- [--concurrency 1,50,200] [--streams 400] [--token-delay-ms 2]
 *                            [--soak-seconds 60] [--soak-concurrency 200] [--server real|bare]
 *
 * --server real (default) runs `modelyard serve` (Express + React Router + the gateway route);
 * --server bare runs bench/gateway-server.ts (the gateway behind a minimal Node adapter).
 *
 * Three processes: the simulator (tests/simulators/cli.ts), the server, and this client. Figures
 * only; nothing is asserted. "server CPU/token" is the server process's user+system CPU time
 * during a level divided by the tokens it streamed (all of its work: HTTP, React Router, the
 * library, SSE), read from /proc.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chatCompletionStream } from "@huggingface/inference";
import { createStreamEventParser } from "#app/inference/stream-events.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    concurrency: { type: "string", default: "1,50,200" },
    streams: { type: "string", default: "400" },
    "token-delay-ms": { type: "string", default: "2" },
    "soak-seconds": { type: "string", default: "60" },
    "soak-concurrency": { type: "string", default: "200" },
    server: { type: "string", default: "real" },
  },
});
const LEVELS = (values.concurrency ?? "1,50,200").split(",").map(Number);
const STREAMS = Number(values.streams);
const TOKEN_DELAY = Number(values["token-delay-ms"]);
const SOAK_SECONDS = Number(values["soak-seconds"]);
const SOAK_CONCURRENCY = Number(values["soak-concurrency"]);
// In both the bundled catalogue and the simulator's Hub fixture (the direct client looks its mapping up there once).
const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const TOKEN = "hf_benchmarkToken00000000000";
// The simulator echoes up to 200 characters of the question: about 40 tokens per reply.
const QUESTION = "Describe, in one long sentence, how a river carves a canyon over thousands of years, and why the rock layers show the history of the land it cut through";

function startChild(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not start:\n${out}`)), 240_000);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, output: () => out });
      }
    };
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.length > 1_000_000) out = out.slice(-100_000);
      check();
    });
    child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => reject(new Error(`child exited (${code}):\n${out}`)));
  });
}

function procStat(pid: number): { cpuMs: number; rssMb: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpuMs: (ticks * 1000) / 100, rssMb: rssKb / 1024 };
}

interface Sample {
  ttft: number;
  perToken: number;
  tokens: number;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

async function viaGateway(base: string): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/inference`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ model: MODEL, provider: "together", messages: [{ role: "user", content: QUESTION }], stream: true }),
  });
  if (!res.ok || !res.body) throw new Error(`gateway answered ${res.status}: ${await res.text()}`);
  let first = 0;
  let last = 0;
  let tokens = 0;
  let failed: string | null = null;
  const feed = createStreamEventParser((e) => {
    if (e.type === "token") {
      const now = performance.now();
      if (tokens === 0) first = now;
      last = now;
      tokens += 1;
    } else if (e.type === "error") failed = e.error.message;
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    feed(value);
  }
  if (failed) throw new Error(failed);
  return { ttft: first - t0, perToken: tokens > 1 ? (last - first) / (tokens - 1) : 0, tokens };
}

async function direct(simUrl: string): Promise<Sample> {
  const overrideFetch: typeof fetch = (input, init) => {
    const u = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    return fetch(`${simUrl}/${u.host}${u.pathname}${u.search}`, init);
  };
  const t0 = performance.now();
  let first = 0;
  let last = 0;
  let tokens = 0;
  // The same mapping the gateway resolves from the catalogue, so neither side pays a Hub lookup.
  for await (const chunk of chatCompletionStream(
    { accessToken: TOKEN, provider: "together", model: MODEL, messages: [{ role: "user", content: QUESTION }] },
    { fetch: overrideFetch, retry_on_error: false },
  )) {
    if (chunk.choices?.[0]?.delta?.content) {
      const now = performance.now();
      if (tokens === 0) first = now;
      last = now;
      tokens += 1;
    }
  }
  return { ttft: first - t0, perToken: tokens > 1 ? (last - first) / (tokens - 1) : 0, tokens };
}

async function runLevel(concurrency: number, total: number, one: () => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      samples.push(await one());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return samples;
}

async function main() {
  console.log(`bench:gateway  node ${process.version}  ${os.cpus().length} cores  token delay ${TOKEN_DELAY} ms  streams per level ${STREAMS}`);
  const sim = await startChild([path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "tests/simulators/cli.ts", "--port", "0", "--token-delay-ms", String(TOKEN_DELAY)], {}, /^(http:\/\/127\.0\.0\.1:\d+)$/m);
  const simUrl = sim.match[1] ?? "";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-bench-"));
  const env = {
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    DATABASE_URL: `sqlite:${path.join(dir, "bench.db")}`,
    MODELYARD_UPSTREAM_OVERRIDE: simUrl,
    MODELYARD_INFERENCE_RATE_LIMIT: "1000000",
  };
  const server =
    values.server === "bare"
      ? // `--import tsx` keeps the gateway in this child's own process, so /proc figures are its own.
        await startChild(["--import", "tsx", "bench/gateway-server.ts"], env, /gateway at (http:\/\/127\.0\.0\.1:\d+)/)
      : await startChild([path.join(ROOT, "bin", "modelyard.mjs"), "serve", "--port", "0"], env, /running at (http:\/\/localhost:\d+)/);
  console.log(`server: ${values.server === "bare" ? "bare gateway (bench/gateway-server.ts)" : "modelyard serve"}`);
  const base = (server.match[1] ?? "").replace("localhost", "127.0.0.1");
  const pid = server.child.pid ?? 0;
  try {
    // Warm both paths (JIT, connection pools, the catalogue cache).
    await runLevel(10, 50, () => viaGateway(base));
    await runLevel(10, 50, () => direct(simUrl));

    console.log("\n| concurrency | path | streams | TTFT p50 | TTFT p95 | per-token p50 | tokens/stream | server CPU/token |");
    console.log("|---|---|---|---|---|---|---|---|");
    const table: Array<{ c: number; ttftOver: number; tokOver: number; cpuPerToken: number }> = [];
    for (const c of LEVELS) {
      const total = Math.max(STREAMS, c * 2);
      const d = await runLevel(c, total, () => direct(simUrl));
      const before = procStat(pid);
      const g = await runLevel(c, total, () => viaGateway(base));
      const after = procStat(pid);
      const tokens = g.reduce((n, s) => n + s.tokens, 0);
      const cpuPerToken = (after.cpuMs - before.cpuMs) / tokens;
      for (const [label, s, cpu] of [["direct", d, "–"], ["gateway", g, `${(cpuPerToken * 1000).toFixed(1)} µs`]] as const) {
        console.log(
          `| ${c} | ${label} | ${s.length} | ${pct(s.map((x) => x.ttft), 50).toFixed(2)} ms | ${pct(s.map((x) => x.ttft), 95).toFixed(2)} ms | ${pct(s.map((x) => x.perToken), 50).toFixed(3)} ms | ${(s.reduce((n, x) => n + x.tokens, 0) / s.length).toFixed(1)} | ${cpu} |`,
        );
      }
      table.push({
        c,
        ttftOver: pct(g.map((x) => x.ttft), 50) - pct(d.map((x) => x.ttft), 50),
        tokOver: pct(g.map((x) => x.perToken), 50) - pct(d.map((x) => x.perToken), 50),
        cpuPerToken,
      });
    }
    console.log("\n| concurrency | TTFT overhead p50 (goal <= 2 ms) | per-token overhead p50 (goal <= 0.1 ms) | server CPU per token |");
    console.log("|---|---|---|---|");
    for (const r of table) console.log(`| ${r.c} | ${r.ttftOver.toFixed(2)} ms | ${r.tokOver.toFixed(3)} ms | ${r.cpuPerToken.toFixed(4)} ms |`);

    if (SOAK_SECONDS > 0) {
      const rssBefore = procStat(pid).rssMb;
      const until = performance.now() + SOAK_SECONDS * 1000;
      let done = 0;
      let failures = 0;
      const worker = async () => {
        while (performance.now() < until) {
          try {
            await viaGateway(base);
            done += 1;
          } catch {
            failures += 1;
          }
        }
      };
      const samplesRss: number[] = [];
      const sampler = setInterval(() => samplesRss.push(procStat(pid).rssMb), 5_000);
      await Promise.all(Array.from({ length: SOAK_CONCURRENCY }, worker));
      clearInterval(sampler);
      await new Promise((r) => setTimeout(r, 2_000));
      const rssAfter = procStat(pid).rssMb;
      console.log(
        `\nsoak: ${SOAK_SECONDS} s at ${SOAK_CONCURRENCY} concurrent streams, ${done} streams (${failures} failed); server RSS before ${rssBefore.toFixed(1)} MB, during max ${Math.max(...samplesRss, rssAfter).toFixed(1)} MB, after ${rssAfter.toFixed(1)} MB`,
      );
      if (samplesRss.length > 2) console.log(`RSS samples every 5 s (MB): ${samplesRss.map((x) => x.toFixed(0)).join(" ")}`);
    }
  } finally {
    server.child.kill("SIGTERM");
    sim.child.kill("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

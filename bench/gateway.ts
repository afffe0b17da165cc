/**
 * Inference gateway overhead: time to first token and per-token cost of a streamed chat reply
 * through POST /api/inference (the real server, `modelyard serve`), against @huggingface/inference
 * calling the same provider SIMULATOR directly, side by side, at several concurrency levels; then
 * the server's RSS and live heap before and after a soak.
 *
 *   npm run bench:gateway -- [--concurrency 1,50,200] [--streams 400] [--token-delay-ms 2]
 *                            [--soak-seconds 60] [--soak-concurrency 200] [--server real|bare]
 *                            [--profile-dir <dir>] [--relay] [--compare N] [--rounds R]
 *
 * --server real (default) runs `modelyard serve` (Express + the gateway route);
 * --server bare runs bench/gateway-server.ts (the gateway behind a minimal Node adapter).
 * --profile-dir writes a V8 CPU profile of the server (node --cpu-prof) there.
 * --relay adds a third path: the library direct, but through bench/gateway-relay.ts, a Node byte
 *   relay with no logic, i.e. the cost of one extra HTTP hop on this machine (the floor under
 *   any gateway's overhead).
 *
 * --compare N measures what /compare does instead: N streams on N different providers started at
 *   once (one per column), through the gateway and as N direct library calls in the same run,
 *   for R rounds (default 20), alternating which path goes first; it prints the time to first
 *   token per column on each path and the gateway's added time, then stops.
 * Three processes: the simulator (tests/simulators/cli.ts), the server, and this client. Figures
 * only; nothing is asserted. CPU per token is read per process and divided by the tokens streamed:
 *  - gateway: the server process's user+system CPU during the level (from /proc): all of its work,
 *    HTTP in and out, the library's request and SSE parsing, the gateway's events;
 *  - direct: this process's CPU (process.cpuUsage) while the library alone calls the simulator:
 *    the same library work, which any client has to do;
 *  - overhead: the difference, what the gateway adds per token.
 * Measurement starts once the server is idle (`modelyard serve` warms catalogue statistics in the
 * background after start). Failed streams are counted with their causes, never dropped.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chatCompletionStream, type InferenceProvider } from "@huggingface/inference";
import { createStreamEventParser } from "#app/inference/stream-events.ts";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";
import { percentile } from "./percentile.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    concurrency: { type: "string", default: "1,50,200" },
    streams: { type: "string", default: "400" },
    "token-delay-ms": { type: "string", default: "2" },
    "soak-seconds": { type: "string", default: "60" },
    "soak-concurrency": { type: "string", default: "200" },
    server: { type: "string", default: "real" },
    "profile-dir": { type: "string" },
    relay: { type: "boolean", default: false },
    compare: { type: "string" },
    rounds: { type: "string", default: "20" },
  },
});
const LEVELS = (values.concurrency ?? "1,50,200").split(",").map(Number);
const STREAMS = Number(values.streams);
const TOKEN_DELAY = Number(values["token-delay-ms"]);
const SOAK_SECONDS = Number(values["soak-seconds"]);
const SOAK_CONCURRENCY = Number(values["soak-concurrency"]);
const PROFILE_DIR = values["profile-dir"] ? path.resolve(values["profile-dir"]) : null;
// In both the bundled catalogue and the simulator's Hub fixture (the direct client looks its mapping up there once).
const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const TOKEN = "hf_benchmarkToken00000000000";
// The simulator echoes up to 200 characters of the question: about 40 tokens per reply.
const QUESTION = "Describe, in one long sentence, how a river carves a canyon over thousands of years, and why the rock layers show the history of the land it cut through";

interface Child {
  child: ChildProcess;
  match: RegExpExecArray;
  output: () => string;
  /** Resolves with the next line matching `re` written after this call. */
  nextLine: (re: RegExp, timeoutMs: number) => Promise<string | null>;
}

function startChild(args: string[], env: Record<string, string>, ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const waiters = new Set<{ re: RegExp; resolve: (line: string) => void }>();
  const nextLine = (re: RegExp, timeoutMs: number) =>
    new Promise<string | null>((resolve) => {
      const waiter = {
        re,
        resolve: (line: string) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        resolve(null);
      }, timeoutMs);
      waiters.add(waiter);
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not start:\n${out}`)), 240_000);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, output: () => out, nextLine });
      }
    };
    child.stdout?.on("data", (d: Buffer) => {
      const text = d.toString();
      out += text;
      if (out.length > 1_000_000) out = out.slice(-100_000);
      for (const line of text.split("\n")) for (const w of waiters) if (w.re.test(line)) w.resolve(line);
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

/** Machine-wide CPU jiffies (busy and total) from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: total - idle, total };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the server spends under 3% of a core for two seconds running (at most 3 minutes). */
async function waitForIdle(pid: number): Promise<number> {
  const t0 = performance.now();
  let quiet = 0;
  let last = procStat(pid).cpuMs;
  while (quiet < 2 && performance.now() - t0 < 180_000) {
    await sleep(1_000);
    const now = procStat(pid).cpuMs;
    quiet = now - last < 30 ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - t0) / 1000;
}

/** The server's memory after a full GC (bench/gateway-memory-probe.ts answers SIGUSR2). */
async function probeMemory(server: Child): Promise<{ rss: number; heapUsed: number; external: number } | null> {
  const line = server.nextLine(/^memory-probe /, 10_000);
  server.child.kill("SIGUSR2");
  const text = await line;
  if (!text) return null;
  const field = (name: string) => Number(new RegExp(`${name}=([\\d.]+)`).exec(text)?.[1] ?? Number.NaN);
  return { rss: field("rss"), heapUsed: field("heapUsed"), external: field("external") };
}

interface Sample {
  ttft: number;
  perToken: number;
  tokens: number;
  /** The gateway's own figure (final event): request received -> first token ready to write. */
  serverTtft?: number;
  /** Gateway only: request sent -> response headers received. */
  headers?: number;
}

/** Failed streams by cause, so a failure count always comes with what went wrong. */
class Failures {
  readonly causes = new Map<string, number>();
  count = 0;
  add(error: unknown): void {
    this.count += 1;
    const cause = describeFailure(error);
    this.causes.set(cause, (this.causes.get(cause) ?? 0) + 1);
  }
  summary(): string {
    return [...this.causes].sort((a, b) => b[1] - a[1]).map(([cause, n]) => `    ${n} × ${cause}`).join("\n");
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  // undici's "fetch failed" says nothing; the socket error is in the cause.
  const cause: unknown = error.cause;
  const detail = cause instanceof Error ? ` (cause: ${[(cause as { code?: unknown }).code, cause.message].filter(Boolean).join(" ")})` : "";
  return `${error.name}: ${error.message}${detail}`.slice(0, 300);
}

async function viaGateway(base: string, provider = "together"): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/inference`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Provider-Token": TOKEN },
    body: JSON.stringify({ model: MODEL, provider, messages: [{ role: "user", content: QUESTION }], stream: true }),
  });
  if (!res.ok || !res.body) throw new Error(`gateway answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const headers = performance.now() - t0;
  let first = 0;
  let last = 0;
  let tokens = 0;
  let failed: string | null = null;
  let ended = false;
  let serverTtft: number | undefined;
  const feed = createStreamEventParser((e) => {
    if (e.type === "token") {
      const now = performance.now();
      if (tokens === 0) first = now;
      last = now;
      tokens += 1;
    } else if (e.type === "error") failed = `error event ${e.error.status} ${e.error.code}: ${e.error.message}`;
    else if (e.type === "final") serverTtft = e.timing.timeToFirstTokenMs ?? undefined;
    else if (e.type === "done") ended = true;
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    feed(value);
  }
  if (failed) throw new Error(failed);
  if (!ended) throw new Error(`the stream ended without a done event after ${tokens} tokens`);
  return { ttft: first - t0, perToken: tokens > 1 ? (last - first) / (tokens - 1) : 0, tokens, headers, ...(serverTtft === undefined ? {} : { serverTtft }) };
}

async function direct(simUrl: string, provider: InferenceProvider = "together"): Promise<Sample> {
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
    { accessToken: TOKEN, provider, model: MODEL, messages: [{ role: "user", content: QUESTION }] },
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

async function runLevel(concurrency: number, total: number, one: () => Promise<Sample>): Promise<{ samples: Sample[]; failures: Failures }> {
  const samples: Sample[] = [];
  const failures = new Failures();
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started += 1;
      try {
        samples.push(await one());
      } catch (error) {
        failures.add(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { samples, failures };
}

const ms = (x: number, digits = 2) => `${x.toFixed(digits)} ms`;

/** Providers that serve MODEL's chat in the catalogue and the simulator, one per compare column. */
const COMPARE_PROVIDERS: InferenceProvider[] = ["together", "fireworks-ai", "groq", "nebius", "novita", "sambanova", "cerebras", "hyperbolic"];

/**
 * /compare's load: `columns` streams on as many providers at once, through the gateway and
 * directly, `rounds` times; time to first token per column on each path, and the difference.
 */
async function compareColumns(base: string, simUrl: string, columns: number, rounds: number): Promise<void> {
  const providers = COMPARE_PROVIDERS.slice(0, columns);
  if (providers.length < columns) throw new Error(`--compare takes at most ${COMPARE_PROVIDERS.length} columns`);
  const gateway = new Map(providers.map((p) => [p, [] as number[]]));
  const straight = new Map(providers.map((p) => [p, [] as number[]]));
  const failures = new Failures();
  const round = async (one: (p: InferenceProvider) => Promise<Sample>, into: Map<string, number[]>) => {
    await Promise.all(
      providers.map(async (p) => {
        try {
          into.get(p)?.push((await one(p)).ttft);
        } catch (error) {
          failures.add(error);
        }
      }),
    );
  };
  for (let i = 0; i < rounds; i += 1) {
    const g = () => round((p) => viaGateway(base, p), gateway);
    const d = () => round((p) => direct(simUrl, p), straight);
    if (i % 2 === 0) {
      await g();
      await d();
    } else {
      await d();
      await g();
    }
  }
  console.log(`\n/compare: ${columns} columns started at once, ${rounds} rounds per path, same run`);
  console.log("\n| column | provider | gateway TTFT p50 | direct TTFT p50 | added TTFT p50 | gateway TTFT p95 | direct TTFT p95 |");
  console.log("|---|---|---|---|---|---|---|");
  providers.forEach((p, i) => {
    const gs = gateway.get(p) ?? [];
    const ds = straight.get(p) ?? [];
    console.log(`| ${i + 1} | ${p} | ${ms(percentile(gs, 50))} | ${ms(percentile(ds, 50))} | ${ms(percentile(gs, 50) - percentile(ds, 50))} | ${ms(percentile(gs, 95))} | ${ms(percentile(ds, 95))} |`);
  });
  const all = (m: Map<string, number[]>) => [...m.values()].flat();
  console.log(`| all | | ${ms(percentile(all(gateway), 50))} | ${ms(percentile(all(straight), 50))} | ${ms(percentile(all(gateway), 50) - percentile(all(straight), 50))} | ${ms(percentile(all(gateway), 95))} | ${ms(percentile(all(straight), 95))} |`);
  if (failures.count > 0) console.log(`failed streams by cause:\n${failures.summary()}`);
}
const us = (x: number) => `${(x * 1000).toFixed(1)} µs`;

async function main() {
  console.log(`bench:gateway  node ${process.version}  ${os.cpus().length} cores  load ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}  token delay ${TOKEN_DELAY} ms  streams per level ${STREAMS}`);
  const sim = await startChild([path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "tests/simulators/cli.ts", "--port", "0", "--token-delay-ms", String(TOKEN_DELAY)], {}, /^(http:\/\/127\.0\.0\.1:\d+)$/m);
  const simUrl = sim.match[1] ?? "";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-bench-"));
  const env = {
    ...SERVE_ENV,
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    DATABASE_URL: `sqlite:${path.join(dir, "bench.db")}`,
    MODELYARD_UPSTREAM_OVERRIDE: simUrl,
    MODELYARD_INFERENCE_RATE_LIMIT: "1000000",
  };
  // The probe (and tsx for it) in the server's own process, so /proc and heap figures are its own.
  const nodeArgs = ["--expose-gc", "--import", "tsx", "--import", "./bench/gateway-memory-probe.ts"];
  if (PROFILE_DIR) nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`);
  const server =
    values.server === "bare"
      ? await startChild([...nodeArgs, "bench/gateway-server.ts"], env, /gateway at (http:\/\/127\.0\.0\.1:\d+)/)
      : await startChild([...SERVE_NODE_FLAGS, ...nodeArgs, path.join(ROOT, "bin", "modelyard.mjs"), "serve", "--port", "0"], env, /running at (http:\/\/localhost:\d+)/);
  console.log(`server: ${values.server === "bare" ? "bare gateway (bench/gateway-server.ts)" : "modelyard serve"}${PROFILE_DIR ? `, CPU profile to ${PROFILE_DIR}` : ""}`);
  const base = (server.match[1] ?? "").replace("localhost", "127.0.0.1");
  const relay = values.relay ? await startChild(["--import", "tsx", "bench/gateway-relay.ts", "--upstream", simUrl], {}, /relay at (http:\/\/127\.0\.0\.1:\d+)/) : null;
  const relayUrl = relay?.match[1] ?? "";
  const pid = server.child.pid ?? 0;
  try {
    console.log(`server idle after ${(await waitForIdle(pid)).toFixed(0)} s`);
    // Warm both paths (JIT, connection pools, the catalogue cache).
    await runLevel(10, 50, () => viaGateway(base));
    await runLevel(10, 50, () => direct(simUrl));
    if (values.compare !== undefined) {
      const columns = Number(values.compare);
      for (const p of COMPARE_PROVIDERS.slice(0, columns)) {
        await runLevel(2, 4, () => viaGateway(base, p));
        await runLevel(2, 4, () => direct(simUrl, p));
      }
      await compareColumns(base, simUrl, columns, Number(values.rounds));
      return;
    }
    if (relay) await runLevel(10, 50, () => direct(relayUrl));

    console.log("\n| concurrency | path | streams ok | failed | TTFT p50 | TTFT p95 | per-token p50 | tokens/stream | CPU/token |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    const table: Array<{ c: number; ttftOver: number; serverTtft: number; tokOver: number; gatewayCpu: number; directCpu: number; relayTtftOver?: number; relayCpu?: number }> = [];
    const allFailures: string[] = [];
    for (const c of LEVELS) {
      const total = Math.max(STREAMS, c * 2);
      const cpu0 = process.cpuUsage();
      const d = await runLevel(c, total, () => direct(simUrl));
      const cpu1 = process.cpuUsage(cpu0);
      const directCpu = (cpu1.user + cpu1.system) / 1000 / d.samples.reduce((n, s) => n + s.tokens, 0);
      const before = procStat(pid);
      const machine0 = machineCpu();
      const wall0 = performance.now();
      const g = await runLevel(c, total, () => viaGateway(base));
      const wallMs = performance.now() - wall0;
      const machine1 = machineCpu();
      const after = procStat(pid);
      const gatewayCpu = (after.cpuMs - before.cpuMs) / g.samples.reduce((n, s) => n + s.tokens, 0);
      // Saturation shows here: when the three processes want more than the machine's cores, the
      // time to first token of a new stream is mostly queueing behind other streams' tokens.
      console.log(
        `|   | gateway level: machine CPU busy | ${(((machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total)) * 100).toFixed(0)}% of ${os.cpus().length} cores | server process ${(((after.cpuMs - before.cpuMs) / wallMs) * 100).toFixed(0)}% of one core | ${Math.round(g.samples.reduce((n, s) => n + s.tokens, 0) / (wallMs / 1000)).toLocaleString("en-US")} tokens/s through the gateway | | | | |`,
      );
      const rows: Array<readonly [string, { samples: Sample[]; failures: Failures }, number]> = [
        ["direct (client process)", d, directCpu],
        ["gateway (server process)", g, gatewayCpu],
      ];
      let relayRow: { samples: Sample[]; cpu: number } | null = null;
      if (relay?.child.pid) {
        const r0 = procStat(relay.child.pid);
        const r = await runLevel(c, total, () => direct(relayUrl));
        const r1 = procStat(relay.child.pid);
        const cpu = (r1.cpuMs - r0.cpuMs) / r.samples.reduce((n, s) => n + s.tokens, 0);
        rows.push(["byte relay (relay process)", r, cpu]);
        relayRow = { samples: r.samples, cpu };
      }
      for (const [label, r, cpu] of rows) {
        const s = r.samples;
        console.log(
          `| ${c} | ${label} | ${s.length} | ${r.failures.count} | ${ms(percentile(s.map((x) => x.ttft), 50))} | ${ms(percentile(s.map((x) => x.ttft), 95))} | ${ms(percentile(s.map((x) => x.perToken), 50), 3)} | ${(s.reduce((n, x) => n + x.tokens, 0) / Math.max(1, s.length)).toFixed(1)} | ${us(cpu)} |`,
        );
        if (r.failures.count > 0) allFailures.push(`  c=${c} ${label}:\n${r.failures.summary()}`);
      }
      const of = (pick: (x: Sample) => number | undefined) => g.samples.flatMap((x) => (pick(x) === undefined ? [] : [pick(x)!]));
      console.log(
        `|   | gateway, where the time went | headers p50 ${ms(percentile(of((x) => x.headers), 50))}, p95 ${ms(percentile(of((x) => x.headers), 95))} | in-server TTFT p50 ${ms(percentile(of((x) => x.serverTtft), 50))}, p95 ${ms(percentile(of((x) => x.serverTtft), 95))} | | | | | |`,
      );
      table.push({
        c,
        ttftOver: percentile(g.samples.map((x) => x.ttft), 50) - percentile(d.samples.map((x) => x.ttft), 50),
        serverTtft: percentile(g.samples.flatMap((x) => (x.serverTtft === undefined ? [] : [x.serverTtft])), 50),
        tokOver: percentile(g.samples.map((x) => x.perToken), 50) - percentile(d.samples.map((x) => x.perToken), 50),
        gatewayCpu,
        directCpu,
        ...(relayRow ? { relayTtftOver: percentile(relayRow.samples.map((x) => x.ttft), 50) - percentile(d.samples.map((x) => x.ttft), 50), relayCpu: relayRow.cpu } : {}),
      });
    }
    if (allFailures.length) console.log(`\nfailed streams by cause:\n${allFailures.join("\n")}`);
    // "in-server TTFT" is the gateway's own figure (its request start to its first token ready to write),
    // which includes the upstream's TTFT; the rest of the client's TTFT is the extra HTTP hop.
    console.log("\n| concurrency | TTFT overhead p50 (goal <= 2 ms) | in-server TTFT p50 | per-token latency overhead p50 | gateway CPU/token | direct CPU/token | CPU overhead per token (goal <= 0.1 ms) |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of table) console.log(`| ${r.c} | ${ms(r.ttftOver)} | ${ms(r.serverTtft)} | ${ms(r.tokOver, 3)} | ${ms(r.gatewayCpu, 4)} | ${ms(r.directCpu, 4)} | ${ms(r.gatewayCpu - r.directCpu, 4)} |`);
    if (relay) {
      console.log("\n| concurrency | byte relay: TTFT overhead p50 | byte relay: CPU/token (one extra hop, no logic) |");
      console.log("|---|---|---|");
      for (const r of table) console.log(`| ${r.c} | ${ms(r.relayTtftOver ?? Number.NaN)} | ${ms(r.relayCpu ?? Number.NaN, 4)} |`);
    }

    if (SOAK_SECONDS > 0) {
      const memBefore = await probeMemory(server);
      const rssBefore = procStat(pid).rssMb;
      const until = performance.now() + SOAK_SECONDS * 1000;
      let done = 0;
      const failures = new Failures();
      const worker = async () => {
        while (performance.now() < until) {
          try {
            await viaGateway(base);
            done += 1;
          } catch (error) {
            failures.add(error);
          }
        }
      };
      const samplesRss: number[] = [];
      const sampler = setInterval(() => samplesRss.push(procStat(pid).rssMb), 5_000);
      await Promise.all(Array.from({ length: SOAK_CONCURRENCY }, worker));
      clearInterval(sampler);
      await sleep(2_000);
      const rssAfter = procStat(pid).rssMb;
      const memAfter = await probeMemory(server);
      console.log(
        `\nsoak: ${SOAK_SECONDS} s at ${SOAK_CONCURRENCY} concurrent streams, ${done} streams ok, ${failures.count} failed; server RSS before ${rssBefore.toFixed(1)} MB, during max ${Math.max(...samplesRss, rssAfter).toFixed(1)} MB, after ${rssAfter.toFixed(1)} MB`,
      );
      if (memBefore && memAfter) {
        console.log(
          `after a full GC: before rss ${memBefore.rss} MB heapUsed ${memBefore.heapUsed} MB external ${memBefore.external} MB; after rss ${memAfter.rss} MB heapUsed ${memAfter.heapUsed} MB external ${memAfter.external} MB`,
        );
      }
      if (failures.count > 0) console.log(`failed streams by cause:\n${failures.summary()}`);
      if (samplesRss.length > 2) {
        // One figure per 30 s keeps a 10-minute soak readable.
        console.log(`RSS every 30 s (MB): ${samplesRss.filter((_, i) => i % 6 === 5).map((x) => x.toFixed(0)).join(" ")}`);
      }
    }
  } finally {
    const exited = new Promise((r) => server.child.once("exit", r));
    server.child.kill("SIGTERM");
    relay?.child.kill("SIGTERM");
    sim.child.kill("SIGTERM");
    // The CPU profile is written as the server exits.
    await Promise.race([exited, sleep(10_000)]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

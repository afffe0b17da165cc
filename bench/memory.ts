/**
 * npm run bench:memory [-- --db PATH --idle 20 --baseline-ref REF] — the served process's memory at
 * 760k models, with glibc's default allocator arenas and with `npm start`'s environment
 * (cli/serve-flags.ts), in the same run on the same database; `--baseline-ref` adds the server of
 * that commit's own code (built beside this checkout), run with `npm start`'s environment. Reads VmRSS, RssAnon and VmHWM from /proc (Linux) at three
 * points: once the facet index is ready, after `--idle` seconds, and after seven cold listing
 * requests. The database is the one `npm run bench:catalog` imports (the newest under the OS temp
 * dir), or `--db`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";
import { awaitServeUrl } from "#tests/support/serve-url.ts";
import { checkoutBaseline, startCommandOf } from "./baseline-checkout.ts";
import { type Rss, rssOf } from "./proc-status.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

const { values: opt } = parseArgs({ options: { db: { type: "string" }, idle: { type: "string", default: "20" }, "baseline-ref": { type: "string" } } });

/** Cold requests of several kinds: a common search, filters, the API, an author, a tag, a sort. */
const REQUESTS = [
  "/models?search=bert",
  "/models?license=mit&sort=likes",
  "/api/models?search=llama&limit=30",
  "/models?library=peft",
  "/models?author=Qwen",
  "/models?other=conversational&sort=created",
  "/models?search=lora&sort=downloads",
];

function benchDatabase(): string {
  if (opt.db) return opt.db;
  const dir = path.join(os.tmpdir(), "modelyard-bench");
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".db"))
        .map((f) => path.join(dir, f))
    : [];
  const newest = files.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!newest) throw new Error(`No imported catalogue under ${dir}: run \`npm run bench:catalog -- --only sqlite --no-http\` once, or pass --db.`);
  return newest;
}

async function measure(file: string, env: Record<string, string>, root: string): Promise<{ ready: Rss; idle: Rss; after: Rss }> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base["MALLOC_ARENA_MAX"];
  delete base["MALLOC_MMAP_THRESHOLD_"];
  // An earlier commit's server runs with its own `npm start` flags.
  const flags = root === ROOT ? [...SERVE_NODE_FLAGS] : startCommandOf(root).flags;
  const child = spawn(process.execPath, [...flags, path.join(root, "bin", "modelyard.mjs"), "serve", "--port", "0"], {
    cwd: root,
    env: { ...base, ...env, HOST: "127.0.0.1", NODE_ENV: "production", DATABASE_URL: `sqlite:${file}`, MODELYARD_SKIP_BUNDLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  try {
    const url = await awaitServeUrl(child, () => out, 300_000);
    const t0 = performance.now();
    while (!/facet index ready/.test(out)) {
      if (performance.now() - t0 > 180_000) throw new Error(`the facet index was not ready within 180 s:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const pid = child.pid!;
    const ready = rssOf(pid);
    await new Promise((r) => setTimeout(r, Number(opt.idle) * 1000));
    const idle = rssOf(pid);
    for (const p of REQUESTS) {
      const res = await fetch(url.replace("localhost", "127.0.0.1") + p, { headers: { "accept-encoding": "identity" } });
      if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 5_000));
    return { ready, idle, after: rssOf(pid) };
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  }
}

const file = benchDatabase();
console.log(`Served process memory on ${file} (${(fs.statSync(file).size / 1e9).toFixed(2)} GB), ${os.availableParallelism()} cores`);
const startEnv = Object.entries(SERVE_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(" ");
const baseline = opt["baseline-ref"] ? checkoutBaseline(opt["baseline-ref"]) : null;
const modes: Array<{ label: string; env: Record<string, string>; root: string }> = [
  ...(baseline ? [{ label: `${opt["baseline-ref"]} (its own code), npm start's environment`, env: { ...SERVE_ENV }, root: baseline.root }] : []),
  { label: "glibc default arenas", env: {}, root: ROOT },
  { label: `npm start (${startEnv})`, env: { ...SERVE_ENV }, root: ROOT },
];
const rows: string[] = [];
const f = (s: Rss) => `${s.rss.toFixed(0)} (${s.anon.toFixed(0)})`;
try {
  for (const mode of modes) {
    const m = await measure(file, mode.env, mode.root);
    const row = `| ${mode.label} | ${f(m.ready)} | ${f(m.idle)} | ${f(m.after)} | ${m.after.peak.toFixed(0)} |`;
    console.log(row);
    rows.push(row);
  }
} finally {
  baseline?.remove();
}
console.log(`\n| server | ready | after ${opt.idle} s idle | after ${REQUESTS.length} cold requests | peak |`);
console.log("|---|---:|---:|---:|---:|");
for (const r of rows) console.log(r);
console.log("\nMB: VmRSS (of it, RssAnon); peak is VmHWM.");

/**
 * Start-up at Hub scale for `npm run bench:catalog -- --scale 3.04M` (issue 33): the SYNTHETIC
 * 3.04M-row catalogue (bench/synthetic-catalog.ts), served as `npm start` serves it, by this
 * checkout and, with --baseline-ref REF, beside it by that commit's own code on the same database.
 *
 * Each server is started three times, a fresh process each time, and the first request of each
 * view in VIEWS is sent, one after the other:
 *  1. "right after listening": as soon as the server logs that it is running, while it builds its
 *     listing index;
 *  2. "once the index answers": as soon as /readyz says the listing index of the current
 *     generation is built (its `listing-index:generation` check turns from warn to pass), which is
 *     when a load balancer would send traffic; the server's own warm-up requests (cli/warm-up.ts)
 *     may still be running;
 *  3. "once warm-up is done": once the server logs its background work and warm-up done.
 * In each, /proc/PID/status is sampled every 100 ms for the first 90 s (longer if the warm-up is not
 * done by then): RSS when listening, when the index answers, at 90 s, and the peak (VmHWM).
 * Stored exact counts (facet_cache) are dropped before each start, so every server pays the same
 * recounts, and the listing index saved in the database (ADR 0045) before each server's first
 * start, so start 1 builds it and starts 2 and 3 load what start 1 saved. Figures only: nothing
 * here asserts a time.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "#app/db/client.server.ts";
import { checkoutBaseline, spawnServe } from "./baseline-checkout.ts";
import { type Rss, rssOf } from "./proc-status.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The listing views of issue 33: each one's first request of the process is timed. */
export const VIEWS = [
  "/models?search=llama",
  "/models?other=gguf&sort=likes",
  "/models?pipeline_tag=text-generation&sort=downloads",
  "/api/models?search=bert&limit=20",
] as const;

const WINDOW_MS = 90_000;
/** How long a server gets to build its index before the run gives up waiting for it. */
const INDEX_LIMIT_MS = 600_000;

interface Sample {
  ms: number;
  rss: Rss;
}

interface Timed {
  view: string;
  /** Sent this long after the spawn. */
  at: number;
  ms: number;
  status: number;
}

interface StartRun {
  listeningMs: number;
  /** When /readyz first said the listing index is built, or the server's log did (older commits). */
  indexMs: number | null;
  indexSource: "readyz" | "log" | null;
  /** When the server logged its background work and warm-up done. */
  warmMs: number | null;
  rssListening: Rss;
  rssIndexed: Rss | null;
  rssAt90: Rss | null;
  /** VmHWM at the end of the window: the highest RSS of the first 90 s (or until the warm-up was done, if later). */
  peak: number;
  peakAt: number;
  windowMs: number;
  requests: Timed[];
  /** The machine's 1-minute load average at the spawn: other work on a shared machine shows here. */
  load: number;
}

type When = "listening" | "indexed" | "warm";
const WHENS: readonly When[] = ["listening", "indexed", "warm"];
const WHEN_TEXT: Record<When, string> = {
  listening: "right after listening",
  indexed: "once the index answers",
  warm: "once warm-up is done",
};

function spawnServer(databaseUrl: string, root: string): { child: ChildProcess; output: () => string } {
  // Built before the first start (below); a build inside the timed start would be counted.
  const child = spawnServe(root, databaseUrl, { env: { MODELYARD_SKIP_BUILD: "1" } });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

/** The listing index's check from /readyz: "pass" once built; null when the server has no such check (an older commit). */
async function listingIndexCheck(url: string): Promise<"pass" | "warn" | "fail" | null> {
  try {
    const res = await fetch(`${url}/readyz`);
    if (res.status === 404) return null;
    const body = (await res.json()) as { checks?: Record<string, Array<{ status: "pass" | "warn" | "fail" }>> };
    const check = body.checks?.["listing-index:generation"]?.[0];
    return check ? check.status : null;
  } catch {
    return "fail";
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startOnce(databaseUrl: string, root: string, when: When): Promise<StartRun> {
  const load = os.loadavg()[0]!;
  const t0 = performance.now();
  const { child, output } = spawnServer(databaseUrl, root);
  const pid = child.pid!;
  const now = () => performance.now() - t0;
  let exited = false;
  child.once("exit", () => (exited = true));
  const samples: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling && !exited) {
      try {
        samples.push({ ms: now(), rss: rssOf(pid) });
      } catch {
        break;
      }
      await sleep(100);
    }
  })();
  try {
    let url: string | null = null;
    while (!url) {
      if (exited) throw new Error(`server exited before listening:\n${output()}`);
      if (now() > 300_000) throw new Error(`server did not listen within 300 s:\n${output()}`);
      const m = /running at (http:\/\/localhost:\d+)/.exec(output());
      if (m) url = m[1]!.replace("localhost", "127.0.0.1");
      else await sleep(10);
    }
    const listeningMs = now();
    const rssListening = rssOf(pid);

    // Written by the watchers below (an object, so the reads after them see their writes).
    const st: { indexMs: number | null; indexSource: StartRun["indexSource"]; rssIndexed: Rss | null; warmMs: number | null } = {
      indexMs: null,
      indexSource: null,
      rssIndexed: null,
      warmMs: null,
    };
    const serverUrl = url;
    // /readyz every 100 ms until the listing index answers; a server without the check is read from its log.
    const watcher = (async () => {
      let hasCheck = true;
      while (!exited && now() < INDEX_LIMIT_MS) {
        if (hasCheck) {
          const c = await listingIndexCheck(serverUrl);
          if (c === null) hasCheck = false;
          else if (c === "pass") {
            st.indexMs = now();
            st.indexSource = "readyz";
            break;
          }
        }
        if (!hasCheck && /facet index ready/.test(output())) {
          st.indexMs = now();
          st.indexSource = "log";
          break;
        }
        await sleep(100);
      }
      if (st.indexMs !== null) st.rssIndexed = rssOf(pid);
    })();
    void (async () => {
      while (!exited && now() < INDEX_LIMIT_MS && st.warmMs === null) {
        if (/facet index ready|statistics failed/.test(output())) st.warmMs = now();
        else await sleep(50);
      }
    })();

    const requests: Timed[] = [];
    const send = async () => {
      for (const view of VIEWS) {
        const at = now();
        const s = performance.now();
        const res = await fetch(serverUrl + view, { headers: { "accept-encoding": "identity" } });
        await res.arrayBuffer();
        requests.push({ view, at, ms: performance.now() - s, status: res.status });
      }
    };
    if (when === "listening") await send();
    await watcher;
    if (when === "indexed" || when === "warm") {
      if (st.indexMs === null) throw new Error(`the listing index was not built within ${INDEX_LIMIT_MS / 1000} s:\n${output().slice(-2000)}`);
      while (when === "warm" && st.warmMs === null && !exited && now() < INDEX_LIMIT_MS) await sleep(20);
      if (when === "warm" && st.warmMs === null) throw new Error(`the server did not log its warm-up done within ${INDEX_LIMIT_MS / 1000} s:\n${output().slice(-2000)}`);
      await send();
    }
    let rssAt90: Rss | null = null;
    // The first 90 s, and on until the server logs its warm-up done when that comes later.
    const windowOpen = () => now() < WINDOW_MS || (st.warmMs === null && now() < INDEX_LIMIT_MS);
    while (!exited && windowOpen()) {
      if (rssAt90 === null && now() >= WINDOW_MS - 100) rssAt90 = rssOf(pid);
      await sleep(now() < WINDOW_MS ? Math.min(100, WINDOW_MS - now()) : 100);
    }
    rssAt90 ??= exited ? null : rssOf(pid);
    const last = exited ? samples.at(-1)?.rss : rssOf(pid);
    sampling = false;
    await sampler;
    let peakAt = 0;
    let top = -1;
    for (const s of samples)
      if (s.rss.rss > top) {
        top = s.rss.rss;
        peakAt = s.ms;
      }
    return { load, listeningMs, ...st, rssListening, rssAt90, peak: last?.peak ?? top, peakAt, windowMs: now(), requests };
  } finally {
    sampling = false;
    if (!exited) {
      const gone = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([gone, sleep(10_000)]);
      if (!exited) child.kill("SIGKILL");
    }
  }
}

/** The OS page cache holds the SQLite file before each start, so no server pays for the disk and the next for nothing. */
function readThrough(file: string): void {
  const fd = fs.openSync(file, "r");
  const buf = Buffer.allocUnsafe(1 << 22);
  try {
    while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
  } finally {
    fs.closeSync(fd);
  }
}

/** The saved listing index, which a catalogue from before migration 0011 does not have yet. */
async function dropSavedIndex(databaseUrl: string): Promise<void> {
  const handle = openDatabase(databaseUrl);
  try {
    await handle.db.deleteFrom("listing_index").execute().catch((e: unknown) => {
      if (!(e instanceof Error && /no such table|does not exist/i.test(e.message))) throw e;
    });
  } finally {
    await handle.close();
  }
}

async function dropStoredCounts(databaseUrl: string): Promise<void> {
  const handle = openDatabase(databaseUrl);
  try {
    await handle.db.deleteFrom("facet_cache").execute();
  } finally {
    await handle.close();
  }
}

const s = (ms: number | null) => (ms === null ? "–" : (ms / 1000).toFixed(1));
const mb = (r: Rss | null | undefined) => (r ? r.rss.toFixed(0) : "–");
const split = (r: Rss | null | undefined) => (r ? `${r.rss.toFixed(0)} (${r.anon.toFixed(0)} + ${r.file.toFixed(0)})` : "–");
const ms = (t: Timed | undefined) => (t ? `${t.ms < 10 ? t.ms.toFixed(1) : t.ms.toFixed(0)}${t.status === 200 ? "" : ` [HTTP ${t.status}]`}` : "–");

export async function runScale(label: string, databaseUrl: string, opts: { rows: number; baselineRef?: string }): Promise<void> {
  console.log(`\n${label}, SYNTHETIC ${opts.rows.toLocaleString("en-US")}-row catalogue: start-up, listing index, RSS and first requests`);
  // This checkout's build, made before any timed start: serve would otherwise build inside the first one.
  execFileSync(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "build"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const baseline = opts.baselineRef ? checkoutBaseline(opts.baselineRef) : null;
  const modes = [...(baseline ? [{ label: `${opts.baselineRef} (its own code)`, root: baseline.root }] : []), { label: "this checkout", root: ROOT }];
  const sqliteFile = databaseUrl.startsWith("sqlite:") ? databaseUrl.slice("sqlite:".length) : null;
  const results: Array<{ mode: string; runs: StartRun[] }> = [];
  try {
    for (const mode of modes) {
      const runs: StartRun[] = [];
      await dropSavedIndex(databaseUrl);
      for (const when of WHENS) {
        await dropStoredCounts(databaseUrl);
        if (sqliteFile) readThrough(sqliteFile);
        const r = await startOnce(databaseUrl, mode.root, when);
        runs.push(r);
        process.stderr.write(
          `  ${mode.label}, requests ${WHEN_TEXT[when]}: listening ${s(r.listeningMs)} s, index answers ${s(r.indexMs)} s (${r.indexSource ?? "never"}), RSS ${mb(r.rssListening)} → ${mb(r.rssIndexed)} MB, peak ${r.peak.toFixed(0)} MB, load ${r.load.toFixed(1)}; ${r.requests.map((t) => `${t.view} ${ms(t)} ms`).join(", ")}\n`,
        );
      }
      results.push({ mode: mode.label, runs });
    }
  } finally {
    baseline?.remove();
  }

  const cols = results.flatMap((r) => r.runs.map((_, i) => `${r.mode}, start ${i + 1}`));
  const all = (f: (r: StartRun) => string) => results.flatMap((r) => r.runs.map(f));
  console.log(`\n### ${label}, SYNTHETIC ${opts.rows.toLocaleString("en-US")}-row catalogue: start-up (times in s from the spawn of \`npm start\`'s serve command; RSS in MB)\n`);
  console.log(`| | ${cols.join(" | ")} |`);
  console.log(`|---|${cols.map(() => "---:").join("|")}|`);
  const row = (name: string, f: (r: StartRun) => string) => console.log(`| ${name} | ${all(f).join(" | ")} |`);
  row("listening (\"running at\")", (r) => s(r.listeningMs));
  row("listing index answers (/readyz)", (r) => `${s(r.indexMs)}${r.indexSource === "log" ? " (log)" : ""}`);
  row("warm-up done (log)", (r) => s(r.warmMs));
  row("RSS when listening", (r) => mb(r.rssListening));
  row("RSS when the index answers (anon + file)", (r) => split(r.rssIndexed));
  row("RSS at 90 s", (r) => mb(r.rssAt90));
  row("RSS peak, first 90 s (VmHWM)", (r) => `${r.peak.toFixed(0)}${r.windowMs > WINDOW_MS + 1000 ? ` (over ${s(r.windowMs)} s)` : ""}`);
  row("RSS peak sampled at (s)", (r) => s(r.peakAt));
  row("load average (1 min) at the spawn", (r) => r.load.toFixed(1));
  console.log(`\nEach start is a fresh process that sends the views' first requests: ${WHENS.map((w, i) => `start ${i + 1} ${WHEN_TEXT[w]}`).join("; ")}.`);

  const modeCols = results.flatMap((r) => WHENS.map((w, i) => `${r.mode}: ${WHEN_TEXT[w]} (start ${i + 1})`));
  console.log(`\n### ${label}, SYNTHETIC ${opts.rows.toLocaleString("en-US")}-row catalogue: first request of each view (ms, uncompressed; sent at s after the spawn)\n`);
  console.log(`| view | ${modeCols.join(" | ")} |`);
  console.log(`|---|${modeCols.map(() => "---:").join("|")}|`);
  const cell = (t: Timed | undefined) => (t ? `${ms(t)} (at ${s(t.at)})` : "–");
  for (const view of VIEWS) {
    console.log(`| \`${view}\` | ${results.flatMap((r) => r.runs.map((run) => cell(run.requests.find((t) => t.view === view)))).join(" | ")} |`);
  }
}

/**
 * Mixed traffic for `npm run bench:catalog -- --mixed` (issue 14; docs/decisions/0017-background-work-off-the-request-path.md).
 *
 * Filter sets are drawn from the data itself: rows are sampled from the dump, and each filter set
 * takes one to three of a sampled row's own facets (task, library, licence, a bare tag, author, a
 * word of its name as the search), so common values come up as often as visitors would meet them.
 * `/models` pages and `/api/models` calls over those sets are interleaved at a few concurrency
 * levels against a real server: this checkout's, and beside it in the same run the code as issue 14
 * found it (BEFORE_ISSUE_14) or another commit's own code (--baseline-ref). The server reports its event-loop delay through the
 * bench-only probe (cli/event-loop-probe.ts): during warm-up, per level, and during an import.
 * An import gets two phases: its first 400 requests from the import's start, then the rest until
 * the server logs its rebuilt index (ADR 0029).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import type { Kysely } from "kysely";
import { DEFAULT_STATE, listingHref } from "#app/catalog-search/listing-params.ts";
import { openDatabase } from "#app/db/client.server.ts";
import type { Database } from "#app/db/schema.ts";
import { WARM_PATHS } from "#cli/warm-up.ts";
import { awaitServeUrl } from "#tests/support/serve-url.ts";
import { checkoutBaseline, spawnServe } from "./baseline-checkout.ts";
import { percentile } from "./percentile.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const SORTS = [
  ["trending", "trendingScore"],
  ["downloads", "downloads"],
  ["likes", "likes"],
  ["created", "createdAt"],
  ["updated", "lastModified"],
] as const;

interface DumpRow {
  id: string;
  pipeline_tag?: string | null;
  library_name?: string | null;
  tags?: string[];
}

/** Deterministic, so both modes (and reruns) see the same filter sets. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform sample of the dump's rows (reservoir), i.e. facet values in their real proportions. */
export async function sampleRows(file: string, n: number, rand: () => number): Promise<{ sample: DumpRow[]; head: string[] }> {
  const sample: DumpRow[] = [];
  const head: string[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()), crlfDelay: Infinity });
  let seen = 0;
  for await (const line of lines) {
    if (!line) continue;
    if (head.length < 2_000) head.push(line);
    seen++;
    const j = seen <= n ? seen - 1 : Math.floor(rand() * seen);
    if (j < n) sample[j] = JSON.parse(line) as DumpRow;
  }
  return { sample, head };
}

interface FilterSet {
  search?: string;
  author?: string;
  task?: string;
  library?: string;
  license?: string;
  tag?: string;
  sort: (typeof SORTS)[number];
}

/** The words of a model's name a visitor might search for: three letters or more, not a number or a version. */
export function searchWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[-_.\s]+/)
    .filter((w) => w.length >= 3 && !/^\d+$/.test(w) && !/^v\d/.test(w));
}

/** A filter set's filters, whatever its sort: a count and facets are kept per filters alone. */
const filtersOf = (f: Omit<FilterSet, "sort">) => JSON.stringify([f.search ?? null, f.author ?? null, f.task ?? null, f.library ?? null, f.license ?? null, f.tag ?? null]);

/**
 * The filters of the views the server asks itself for before it says it is ready (cli/warm-up.ts).
 * Their first request after that is not a first request: the sets drawn here leave them out.
 */
function warmedFilters(): Set<string> {
  return new Set(
    WARM_PATHS.map((path) => {
      const p = new URL(path, "http://x").searchParams;
      const tag = p.get("other") ?? p.get("filter") ?? undefined;
      return filtersOf({
        search: p.get("search") ?? undefined,
        author: p.get("author") ?? undefined,
        task: p.get("pipeline_tag") ?? undefined,
        library: p.get("library") ?? undefined,
        license: p.get("license") ?? undefined,
        tag,
      });
    }),
  );
}

export function filterSets(rows: DumpRow[], n: number, rand: () => number): FilterSet[] {
  const warmed = warmedFilters();
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(rand() * xs.length)];
  const out: FilterSet[] = [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < n && tries < n * 50; tries++) {
    const r = pick(rows);
    if (!r) break;
    const tags = r.tags ?? [];
    const [author, name = ""] = r.id.includes("/") ? r.id.split("/", 2) : [undefined, r.id];
    const words = searchWords(name);
    const choices: Array<(f: FilterSet) => boolean> = [
      (f) => !!r.pipeline_tag && !!(f.task = r.pipeline_tag),
      (f) => !!r.library_name && !!(f.library = r.library_name),
      (f) => {
        const l = tags.find((t) => t.startsWith("license:"));
        return !!l && !!(f.license = l.slice("license:".length));
      },
      (f) => {
        const t = pick(tags.filter((x) => !x.includes(":") && x !== r.pipeline_tag && x !== r.library_name));
        return !!t && !!(f.tag = t);
      },
      (f) => !!author && !!(f.author = author),
      (f) => {
        const w = pick(words);
        return !!w && !!(f.search = w);
      },
    ];
    // Mostly one or two filters, as listing traffic is; a few deeper drill-downs.
    const want = rand() < 0.55 ? 1 : rand() < 0.85 ? 2 : 3;
    const f: FilterSet = { sort: pick(SORTS) ?? SORTS[0] };
    let got = 0;
    for (const c of [...choices].sort(() => rand() - 0.5)) if (got < want && c(f)) got++;
    const key = JSON.stringify(f);
    if (got === want && !seen.has(key) && !warmed.has(filtersOf(f))) {
      seen.add(key);
      out.push(f);
    }
  }
  return out;
}

/** The page's own URL for the filter set, written by the listing's own `listingHref`. */
export function pageUrl(f: FilterSet): string {
  return listingHref({
    ...DEFAULT_STATE,
    search: f.search ?? "",
    author: f.author ?? null,
    pipelineTag: f.task ?? null,
    library: f.library ?? null,
    license: f.license ?? null,
    other: f.tag ? [f.tag] : [],
    sort: f.sort[0],
  });
}

export function apiUrl(f: FilterSet): string {
  const p = new URLSearchParams();
  if (f.search) p.set("search", f.search);
  if (f.author) p.set("author", f.author);
  if (f.task) p.set("pipeline_tag", f.task);
  if (f.library) p.set("library", f.library);
  if (f.license) p.set("license", f.license);
  if (f.tag) p.append("filter", f.tag);
  p.set("sort", f.sort[1]);
  p.set("limit", "30");
  return `/api/models?${p}`;
}

// ---- server ----------------------------------------------------------------------------------

interface Delay {
  p50: number;
  p99: number;
  max: number;
  n: number;
  /** What the loop was doing when it stalled (cli/event-loop-probe.ts). */
  stalls?: { count: number; gc: { n: number; ms: number; max: number; kinds: Record<string, number> }; during: Array<[string, number]> };
}

interface Server {
  url: string;
  child: ChildProcess;
  warmMs: number;
  warmDelay: Delay | null;
  /** Asks the server for its event-loop delay since the last report. */
  delay(): Promise<Delay | null>;
  /** How many "Facet index rebuilt" lines the server has logged (one per import it noticed). */
  rebuilds(): number;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string, root = ROOT): Promise<Server> {
  // MODELYARD_BENCH_CPU_PROF=DIR writes each server's CPU profile there (node --cpu-prof).
  const prof = process.env["MODELYARD_BENCH_CPU_PROF"];
  const profFlags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`, `--cpu-prof-interval=${process.env["MODELYARD_BENCH_CPU_PROF_INTERVAL"] || 1000}`] : [];
  const child = spawnServe(root, databaseUrl, { flags: profFlags, env: { MODELYARD_BENCH_EVENT_LOOP: "1" } });
  let out = "";
  const waiters: Array<(d: Delay) => void> = [];
  let pending = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    pending += d.toString();
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      const m = /^event-loop-delay signal (\{.*\})$/.exec(line);
      if (m) waiters.shift()?.(JSON.parse(m[1]!) as Delay);
    }
  });
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const url = await awaitServeUrl(child, () => out, 300_000);
  const t0 = performance.now();
  while (!/facet index ready|statistics failed/.test(out) && performance.now() - t0 < 180_000) await new Promise((r) => setTimeout(r, 50));
  const warmMs = performance.now() - t0;
  const w = /event-loop-delay warm-up (\{.*\})/.exec(out);
  return {
    url,
    child,
    warmMs,
    warmDelay: w ? (JSON.parse(w[1]!) as Delay) : null,
    rebuilds: () => out.match(/Facet index rebuilt/g)?.length ?? 0,
    delay: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 5_000);
        waiters.push((d) => {
          clearTimeout(timer);
          resolve(d);
        });
        child.kill("SIGUSR2");
      }),
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** `modelyard import` of `file` as the server's own checkout runs it. */
function runImport(databaseUrl: string, file: string, root: string): Promise<void> {
  const child = spawn(process.execPath, [path.join(root, "bin", "modelyard.mjs"), "import", file, "--stats-as-of", "2024-07-11"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`import exited ${code}: ${err}`)))));
}

// ---- traffic ---------------------------------------------------------------------------------

interface Phase {
  name: string;
  page: number[];
  api: number[];
  /** The first request of each filter set, page or API. */
  first: number[];
  errors: number;
  /** Distinct failing requests with their status, to tell bad draws from server faults. */
  failed: Set<string>;
  /** The slowest requests, to tell where a tail comes from; `at` is when each was sent, from the phase's start. */
  slowest: Array<{ ms: number; url: string; first: boolean; at: number }>;
  delay: Delay | null;
  /** The phase's length, from its first request to its last answer. */
  ms: number;
}

/**
 * `requests` requests from `concurrency` clients, page and API in turn; with `until`, the clients
 * go on past that count until it settles (an import and the rebuild after it).
 */
async function traffic(
  server: Server,
  sets: FilterSet[],
  concurrency: number,
  requests: number,
  name: string,
  rand: () => number,
  until?: Promise<unknown>,
): Promise<Phase> {
  let settled = !until;
  void until?.finally(() => (settled = true));
  let issued = 0;
  const nextJob = (): { url: string; cls: "page" | "api"; set: number } | null => {
    if (issued >= requests && settled) return null;
    const set = Math.floor(rand() * sets.length);
    const cls = issued++ % 2 === 0 ? "page" : "api";
    return { url: cls === "page" ? pageUrl(sets[set]!) : apiUrl(sets[set]!), cls, set };
  };
  const phase: Phase = { name, page: [], api: [], first: [], errors: 0, failed: new Set(), slowest: [], delay: null, ms: 0 };
  const firstSeen = new Set<number>();
  // The client's own start is not the server's latency: a process's first fetch loads undici (some
  // 45 ms, and 20 ms for each of four at once), and each client opens its connection. A static file
  // warms both without touching the catalogue's code.
  await Promise.all(Array.from({ length: concurrency }, () => fetch(`${server.url}/robots.txt`).then((r) => r.arrayBuffer())));
  await server.delay(); // resets the histogram: the figures cover this phase only
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      const job = nextJob();
      if (!job) return;
      const isFirst = !firstSeen.has(job.set);
      firstSeen.add(job.set);
      const t0 = performance.now();
      const res = await fetch(server.url + job.url, { headers: { "accept-encoding": "identity" } });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (!res.ok) {
        phase.errors++;
        phase.failed.add(`${res.status} ${job.url}`);
      }
      (job.cls === "page" ? phase.page : phase.api).push(ms);
      if (isFirst) phase.first.push(ms);
      phase.slowest.push({ ms, url: job.url, first: isFirst, at: t0 - started });
      if (phase.slowest.length > 8) phase.slowest.sort((a, b) => b.ms - a.ms).pop();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  phase.ms = performance.now() - started;
  phase.delay = await server.delay();
  return phase;
}

const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(1) : n.toFixed(0));
const trio = (xs: number[]) => `${f(percentile(xs, 50))} / ${f(percentile(xs, 95))} / ${f(percentile(xs, 99))}`;
const span = (p: Phase) => `${p.page.length + p.api.length} requests in ${(p.ms / 1000).toFixed(1)} s`;
const delayText = (d: Delay | null) => (d ? `${f(d.p50)} / ${f(d.p99)} / ${f(d.max)}` : "–");

/** A phase's line as it ends; verbose adds its slowest requests and what the loop did when it stalled. */
function reportPhase(p: Phase, verbose?: boolean): void {
  process.stderr.write(`    ${p.name}: ${span(p)}; page ${trio(p.page)}, api ${trio(p.api)}, loop ${delayText(p.delay)}\n`);
  if (!verbose) return;
  for (const x of [...p.slowest].sort((a, b) => b.ms - a.ms)) process.stderr.write(`      ${f(x.ms)} ms${x.first ? " (first of its set)" : ""} at +${Math.round(x.at)} ms ${x.url}\n`);
  const st = p.delay?.stalls;
  if (!st) return;
  process.stderr.write(`      stalls over 10 ms: ${st.count}; collections over 5 ms: ${st.gc.n} (${st.gc.ms} ms, longest ${st.gc.max} ms; ${JSON.stringify(st.gc.kinds)})\n`);
  for (const [url, n] of st.during) process.stderr.write(`        ${n}× in flight: ${url}\n`);
}

/**
 * Resolves once the server logs the rebuild of its facet index after an import. A server without
 * that line (an older commit's) gets the time its start took to build the index, plus half.
 */
async function rebuilt(server: Server): Promise<void> {
  const before = server.rebuilds();
  const limit = performance.now() + Math.max(10_000, server.warmMs * 1.5);
  while (server.rebuilds() === before && performance.now() < limit) await new Promise((r) => setTimeout(r, 50));
}

/** Stored exact counts outlive a server; each mode starts without them so both pay the same recounts. */
async function dropStoredFacetCounts(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom("facet_cache").execute();
}

/**
 * The code as issue 14 found it: the commit that added this benchmark and its event-loop probe, and
 * nothing else, so its server is the listing before any of the issue's changes. Unless the run
 * names another commit (--baseline-ref) or none (--current-only), it runs beside this checkout, built
 * in a git worktree (bench/baseline-checkout.ts): fixed 1,000-row slices, every SQLite read on the
 * event loop, no facet index thread, no in-memory listing.
 */
export const BEFORE_ISSUE_14 = "289f9ce";

interface Mode {
  label: string;
  root?: string;
}

export async function runMixed(
  label: string,
  databaseUrl: string,
  dataFile: string,
  opts: { requests: number; sets: number; levels: number[]; importLevels: number[]; baselineRef?: string; currentOnly?: boolean; verbose?: boolean },
): Promise<void> {
  const rand = rng(14);
  const t0 = performance.now();
  const { sample, head } = await sampleRows(dataFile, 5_000, rand);
  const sets = filterSets(sample, opts.sets, rand);
  console.log(`\n${label}, mixed traffic: ${sets.length} filter sets drawn from ${sample.length} sampled rows in ${((performance.now() - t0) / 1000).toFixed(1)} s, e.g.`);
  for (const s of sets.slice(0, 5)) console.log(`  ${pageUrl(s)}  |  ${apiUrl(s)}`);
  // The import phase re-imports the dump's first rows as they are: a new catalogue generation
  // (index rebuild, recounts) without changing the data the next run measures.
  const slice = path.join(os.tmpdir(), `modelyard-mixed-${process.pid}.jsonl`);
  fs.writeFileSync(slice, head.join("\n") + "\n");

  const baselineRef = opts.baselineRef ?? (opts.currentOnly ? undefined : BEFORE_ISSUE_14);
  const baseline = baselineRef ? checkoutBaseline(baselineRef) : null;
  const modes: Mode[] = [...(baseline ? [{ label: `${baselineRef}${baselineRef === BEFORE_ISSUE_14 ? ", before issue 14" : ""} (its own code)`, root: baseline.root }] : []), { label: "this checkout" }];
  const results: Array<{ mode: string; warmMs: number; warmDelay: Delay | null; phases: Phase[] }> = [];
  try {
    for (const mode of modes) {
      const handle = openDatabase(databaseUrl);
      await dropStoredFacetCounts(handle.db).finally(() => handle.close());
      const server = await startServer(databaseUrl, mode.root);
      const phases: Phase[] = [];
      try {
        console.log(`  ${mode.label}: warm ${(server.warmMs / 1000).toFixed(1)} s after listening; event loop during warm-up ${delayText(server.warmDelay)} ms`);
        for (const c of opts.levels) {
          const p = await traffic(server, sets, c, opts.requests, `concurrency ${c}`, rng(100 + c));
          phases.push(p);
          reportPhase(p, opts.verbose);
        }
        // Traffic while another process imports (as `modelyard import` would): the server notices the
        // new generation and rebuilds. A separate process, so the import's CPU is not this client's.
        // At c=1 the loop's delay is the background work's own; at c=4 it adds the traffic's.
        // Each import's second phase lasts until its rebuild is over, so the next starts afresh.
        for (const c of opts.importLevels) {
          // Two phases: the first requests from the import's start (its writes, its commit, then
          // every memo cold at once), and the rest of the rebuild until the index is back.
          const importing = runImport(databaseUrl, slice, mode.root ?? ROOT);
          const whileImporting = await traffic(server, sets, c, opts.requests, `concurrency ${c}, from an import's start`, rng(999));
          phases.push(whileImporting);
          reportPhase(whileImporting, opts.verbose);
          const restName = `concurrency ${c}, from there until the index is rebuilt`;
          const rest = await traffic(server, sets, c, 0, restName, rng(998), importing.then(() => rebuilt(server)));
          phases.push(rest);
          reportPhase(rest, opts.verbose);
        }
      } finally {
        await server.stop();
      }
      results.push({ mode: mode.label, warmMs: server.warmMs, warmDelay: server.warmDelay, phases });
    }
  } finally {
    fs.rmSync(slice, { force: true });
    // A failed phase must not leave the worktree registered, or the next run would reuse its build.
    baseline?.remove();
  }

  console.log(`\n### ${label}, mixed traffic over HTTP (${opts.requests} requests per phase, page and API interleaved; ms as p50 / p95 / p99)\n`);
  console.log("| phase | server | /models | /api/models | first request of a set p50 (max) | event-loop delay p50 / p99 / max | requests | errors |");
  console.log("|---|---|---:|---:|---:|---:|---|---:|");
  for (const r of results) console.log(`| warm-up (${(r.warmMs / 1000).toFixed(1)} s) | ${r.mode} | – | – | – | ${delayText(r.warmDelay)} | – | – |`);
  const names = results[0]?.phases.map((p) => p.name) ?? [];
  const failed = new Set<string>();
  for (const [i, name] of names.entries()) {
    for (const r of results) {
      const p = r.phases[i];
      if (!p) continue;
      for (const x of p.failed) failed.add(x);
      console.log(`| ${name} | ${r.mode} | ${trio(p.page)} | ${trio(p.api)} | ${f(percentile(p.first, 50))} (${f(Math.max(...p.first))}) | ${delayText(p.delay)} | ${span(p)} | ${p.errors} |`);
    }
  }
  if (failed.size) console.log(`\nFailed requests (counted under errors, timed all the same): ${[...failed].join(", ")}`);
}

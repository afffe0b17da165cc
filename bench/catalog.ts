/**
 * Catalogue listing benchmark: `npm run bench:catalog [-- options]`.
 *
 * Imports the 760k-row Hub snapshot (../shared/data/hub-models-2024-07-11.jsonl.gz) into SQLite,
 * and into PostgreSQL when TEST_DATABASE_URL (or a postgres DATABASE_URL) is set, then prints
 * p50 / p95 / max per query class, in the handler and over HTTP, next to the straightforward
 * baseline (the plain SQL page that answers while the index builds, exact COUNT(*), live GROUP BY
 * facets).
 *
 * The imported SQLite file is cached under the OS temp dir, keyed by the data file's size and a
 * hash of its bytes, so later runs skip the import. (Not its mtime: the shared data is put in place
 * again for each session, with a new mtime and the same bytes.) Options:
 *   --iterations N   samples per query (default 20)
 *   --db PATH        use this SQLite file as is (no import)
 *   --no-http        skip the HTTP part
 *   --no-handler     skip the in-handler part (HTTP and server RSS only)
 *   --no-baseline    skip the baseline
 *   --only sqlite|postgres
 *   --mixed          only mixed traffic over HTTP (bench/catalog-mixed.ts), this checkout next to
 *                    the code as issue 14 found it; --requests N per phase (default 400);
 *                    --baseline-ref REF runs that commit's own code as the baseline instead;
 *                    --current-only runs no baseline (unless REF is given); --verbose lists
 *                    each phase's slowest requests; --levels 1,4,16 sets the concurrency levels;
 *                    --import-levels 1,4 those of the phases during an import
 *   --scale 3.04M    issue 33's Hub scale, on a SYNTHETIC catalogue: the 760k dump four times over,
 *                    copies 2–4 with ids suffixed -syn2/-syn3/-syn4 (bench/synthetic-catalog.ts).
 *                    The generated .jsonl.gz and the imported SQLite file are cached in the OS temp
 *                    dir like the 760k ones (keyed by the generated file's bytes); the import is the
 *                    normal `modelyard import FILE --stats-as-of 2024-07-11`. PostgreSQL gets a
 *                    database of its own beside TEST_DATABASE_URL's (modelyard_bench_synthetic_3_04m).
 *                    Then, per server (this checkout; first the --baseline-ref REF's own code, on the
 *                    same database, when given), two fresh starts of `npm start`'s serve command
 *                    (bench/catalog-scale.ts): time to listening, time until /readyz says the
 *                    listing index answers, RSS when listening / when the index answers / at 90 s,
 *                    peak RSS (VmHWM) over the first 90 s, and the first request of a few listing
 *                    views right after listening (start 1) and once the index answers (start 2).
 *                    With --mixed too, the mixed traffic phases follow at this scale (pass
 *                    --current-only or --baseline-ref, or the issue-14 baseline runs at 3M rows).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { type CatalogFilters, PAGE_SIZE, emptyFilters } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import type { PageQuery } from "#app/catalog-search/answer-types.ts";
import { readFacetIndex } from "#app/catalog-search/facets.server.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { type CatalogSnapshot, newResultCache, openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { sqlPage } from "#app/catalog-search/sql/sql-listing.server.ts";
import { getMeta, setMeta } from "#app/db/queries/meta.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";
import { baselineCount, liveFacetsBaseline } from "#tests/support/catalog-baseline.ts";
import { awaitServeUrl } from "#tests/support/serve-url.ts";
import { runMixed } from "./catalog-mixed.ts";
import { percentile } from "./percentile.ts";
import { type Rss, rssOf } from "./proc-status.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";
import { runScale } from "./catalog-scale.ts";
import { SYNTHETIC_SCALES, type SyntheticScale, ensureSyntheticCatalog } from "./synthetic-catalog.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const DUMP = path.join(sharedDataDir(), "hub-models-2024-07-11.jsonl.gz");
const STATS_DATE = "2024-07-11";

const { values: opt } = parseArgs({
  options: {
    iterations: { type: "string", default: "20" },
    db: { type: "string" },
    "no-http": { type: "boolean", default: false },
    "no-handler": { type: "boolean", default: false },
    "no-baseline": { type: "boolean", default: false },
    only: { type: "string" },
    mixed: { type: "boolean", default: false },
    requests: { type: "string", default: "400" },
    "baseline-ref": { type: "string" },
    "current-only": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    levels: { type: "string", default: "1,4,16" },
    "import-levels": { type: "string", default: "1,4" },
    scale: { type: "string" },
  },
});
if (opt.scale !== undefined && !(opt.scale in SYNTHETIC_SCALES)) throw new Error(`--scale: one of ${Object.keys(SYNTHETIC_SCALES).join(", ")}, got '${opt.scale}'`);
const SCALE = opt.scale as SyntheticScale | undefined;
/** The dump, or at --scale the SYNTHETIC catalogue made of it (generated once, cached). */
const synthetic = SCALE ? await ensureSyntheticCatalog(DUMP, SCALE) : null;
const DATA = synthetic?.file ?? DUMP;
const ITER = Math.max(3, Number(opt.iterations));

let key: string | undefined;
function dataKey(): string {
  key ??= `${path.basename(DATA)}:${fs.statSync(DATA).size}:${createHash("sha256").update(fs.readFileSync(DATA)).digest("hex").slice(0, 16)}`;
  return key;
}

async function ensureImported(handle: DatabaseHandle, label: string, databaseUrl: string): Promise<void> {
  await migrate(handle);
  const key = dataKey();
  if ((await getMeta(handle.db, "bench:source")) === key) {
    console.log(`${label}: reusing the imported ${synthetic ? "SYNTHETIC " : ""}catalogue (${(await countModels(handle.db)).toLocaleString("en-US")} models).`);
    return;
  }
  console.log(`${label}: importing ${path.basename(DATA)} …`);
  if (synthetic) {
    // At scale, the normal importer as an operator runs it: `modelyard import`, at its default low CPU priority.
    const t0 = performance.now();
    execFileSync(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "import", DATA, "--stats-as-of", STATS_DATE], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "inherit", "inherit"],
    });
    console.log(`${label}: imported the SYNTHETIC catalogue in ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
    await setMeta(handle.db, "bench:source", key);
    return;
  }
  const t0 = performance.now();
  let last = 0;
  const s = await importPaths(handle, [DATA], {
    statsAsOf: STATS_DATE,
    onProgress: (p) => {
      if (p.elapsedMs - last > 15_000) {
        last = p.elapsedMs;
        console.log(`  … ${p.rows.toLocaleString("en-US")} rows, ${Math.round(p.rows / (p.elapsedMs / 1000))} rows/s`);
      }
    },
  });
  const secs = (performance.now() - t0) / 1000;
  console.log(`${label}: imported ${s.rows.toLocaleString("en-US")} rows (${s.rejected} rejected) in ${secs.toFixed(1)} s (${Math.round(s.rows / secs)} rows/s).`);
  await setMeta(handle.db, "bench:source", key);
}

// ---- measurement -----------------------------------------------------------------------------

interface Case {
  label: string;
  run: () => Promise<unknown>;
  base?: () => Promise<unknown>;
}

interface ClassResult {
  cls: string;
  samples: number[];
  base: number[];
}


async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function measure(cls: string, cases: Case[], withBase: boolean): Promise<ClassResult> {
  const r: ClassResult = { cls, samples: [], base: [] };
  for (const c of cases) {
    await c.run(); // warm the database's page cache and V8's compiled code
    for (let i = 0; i < ITER; i++) r.samples.push(await time(c.run));
    if (withBase && c.base) {
      await c.base();
      // The baseline is slow by design; fewer samples keep the run short without changing p50.
      for (let i = 0; i < Math.max(3, Math.ceil(ITER / 4)); i++) r.base.push(await time(c.base));
    }
  }
  process.stderr.write(`  ${cls}: p95 ${f(percentile(r.samples, 95))} ms${r.base.length ? `, baseline p95 ${f(percentile(r.base, 95))} ms` : ""}\n`);
  return r;
}

const f = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n.toFixed(1));

function printTable(title: string, rows: ClassResult[], goal: number): void {
  console.log(`\n### ${title}\n`);
  console.log("| class | p50 ms | p95 ms | max ms | goal | baseline p50 | baseline p95 | baseline/ours (p95) |");
  console.log("|---|---:|---:|---:|:-:|---:|---:|---:|");
  for (const r of rows) {
    const p95 = percentile(r.samples, 95);
    const b95 = r.base.length ? percentile(r.base, 95) : Number.NaN;
    console.log(
      `| ${r.cls} | ${f(percentile(r.samples, 50))} | ${f(p95)} | ${f(Math.max(...r.samples))} | ${p95 <= goal ? "✓" : "✗"} | ${f(r.base.length ? percentile(r.base, 50) : Number.NaN)} | ${f(b95)} | ${Number.isNaN(b95) ? "–" : `${(b95 / p95).toFixed(1)}×`} |`,
    );
  }
}

// ---- the query classes -----------------------------------------------------------------------

const F = (patch: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...patch });
const P = (sort: SortKey, offset = 0): PageQuery => ({ sort, ascending: false, offset, limit: PAGE_SIZE });

async function handlerClasses(h: DatabaseHandle, withBase: boolean): Promise<ClassResult[]> {
  const snap = await openSnapshot(h);
  // What a first request of a view finds: nothing kept in the result cache. Each sample gets a
  // cache of its own, so a class times the work, not a cache hit.
  const unremembered = (): CatalogSnapshot => ({ ...snap, results: newResultCache() });
  const page = (filters: CatalogFilters, q: PageQuery): Case => ({
    label: JSON.stringify(filters),
    run: () => search(unremembered(), filters, { ...q, counts: "none" }),
    base: () => sqlPage(h, filters, q),
  });
  const count = (filters: CatalogFilters): Case => ({
    label: JSON.stringify(filters),
    run: () => search(unremembered(), filters, { ...P("trending"), limit: 0, counts: "total" }),
    base: () => baselineCount(h, filters),
  });
  const facets = (filters: CatalogFilters): Case => ({
    label: JSON.stringify(filters),
    run: () => search(unremembered(), filters, { ...P("trending"), limit: 0, counts: "facets" }),
    base: () => liveFacetsBaseline(h, filters),
  });
  const firstCount = (filters: CatalogFilters, s: () => CatalogSnapshot = unremembered): Case => ({
    label: JSON.stringify(filters),
    run: () => search(s(), filters, { ...P("trending"), limit: 0, counts: "facets" }),
  });
  // The seconds after an import, before the facet index of the new generation is built: the plain
  // queries answer, with counts capped at 10,000 and facets over those rows.
  const withoutIndex = (): CatalogSnapshot => ({ ...unremembered(), index: null });
  const plainPage = (filters: CatalogFilters, q: PageQuery): Case => ({
    label: JSON.stringify(filters),
    run: () => search(withoutIndex(), filters, { ...q, counts: "facets" }),
  });

  const tl = [
    F({ pipelineTag: "text-generation", tags: ["transformers"] }),
    F({ pipelineTag: "text-to-image", tags: ["diffusers"] }),
    F({ pipelineTag: "automatic-speech-recognition", tags: ["transformers"] }),
  ];
  const common = ["llama", "bert", "qwen"].map((s) => F({ search: s }));
  const rare = [F({ search: "zephyr-7b" }), F({ search: "HuggingFaceH4/zephyr-7b-beta" })];
  const combos = [
    F({ search: "llama", pipelineTag: "text-generation" }),
    F({ search: "bert", pipelineTag: "fill-mask" }),
    F({ search: "qwen", tags: ["transformers"] }),
    F({ search: "zephyr", pipelineTag: "text-generation", license: "mit" }),
  ];

  const out: ClassResult[] = [];
  for (const sort of ["trending", "downloads", "likes", "created", "updated"] as const) {
    out.push(await measure(`browse, sort=${sort}`, [page(F({}), P(sort))], withBase));
  }
  out.push(await measure("task + library", tl.map((x) => page(x, P("trending"))), withBase));
  out.push(await measure("search, common (llama, bert, qwen)", common.map((x) => page(x, P("trending"))), withBase));
  out.push(await measure("search, common, by downloads", common.map((x) => page(x, P("downloads"))), withBase));
  out.push(await measure("search, rare (zephyr-7b, exact id)", rare.map((x) => page(x, P("trending"))), withBase));
  out.push(
    await measure(
      "deep page, offset 3000",
      [page(F({}), P("downloads", 3000)), page(F({}), P("trending", 3000)), page(F({ pipelineTag: "text-generation" }), P("likes", 3000))],
      withBase,
    ),
  );
  out.push(await measure("deep page, search llama, offset 3000", [page(F({ search: "llama" }), P("trending", 3000))], withBase));
  out.push(await measure("search + filters", combos.map((x) => page(x, P("trending"))), withBase));
  out.push(await measure("count, unfiltered + task", [count(F({})), count(F({ pipelineTag: "text-generation" }))], withBase));
  out.push(await measure("count, task + library", tl.map(count), withBase));
  out.push(await measure("count, search", [...common, ...rare].map(count), withBase));
  out.push(await measure("count, search + filters", combos.map(count), withBase));
  out.push(await measure("facets, unfiltered", [facets(F({}))], withBase));
  out.push(await measure("facets, filtered", [facets(F({ pipelineTag: "text-generation" })), ...tl.map(facets)], withBase));
  out.push(await measure("facets, with search", [...common, ...rare, ...combos].map(facets), withBase));
  out.push(await measure("count + facets, first request of a filter set", [...tl, ...common, ...rare, ...combos].map((x) => firstCount(x)), false));
  out.push(await measure("count + facets, first request, no facet index yet", [...tl, ...common, ...rare, ...combos].map((x) => firstCount(x, withoutIndex)), false));
  out.push(await measure("whole view, no facet index yet (plain SQL)", [F({}), ...tl, ...common, ...rare, ...combos].map((x) => plainPage(x, P("trending"))), false));
  out.push(
    await measure(
      "whole loader (page + count + facets)",
      [F({}), F({ search: "llama" }), tl[0]!, F({ search: "zephyr-7b" }), combos[0]!].map((x) => ({
        label: "",
        run: () => search(unremembered(), x, { ...P("trending"), counts: "facets" }),
      })),
      false,
    ),
  );
  return out;
}

// ---- HTTP ------------------------------------------------------------------------------------

async function startServer(databaseUrl: string): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...SERVE_NODE_FLAGS, path.join(ROOT, "bin", "modelyard.mjs"), "serve", "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, ...SERVE_ENV, HOST: "127.0.0.1", NODE_ENV: "production", DATABASE_URL: databaseUrl, MODELYARD_SKIP_BUNDLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const url = await awaitServeUrl(child, () => out, 300_000);
  // Steady state: the server warms its statistics and facet index in the background after start.
  const warmStart = performance.now();
  while (!/facet index ready|statistics failed/.test(out) && performance.now() - warmStart < 120_000) await new Promise((r) => setTimeout(r, 100));
  console.log(`  server warm ${((performance.now() - warmStart) / 1000).toFixed(1)} s after it started listening`);
  return {
    url,
    child,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

async function httpClasses(databaseUrl: string): Promise<{ rows: ClassResult[]; rss: Rss }> {
  const server = await startServer(databaseUrl);
  try {
    const get = (p: string) => async () => {
      const res = await fetch(server.url + p, { headers: { "accept-encoding": "identity" } });
      if (!res.ok) throw new Error(`${p}: HTTP ${res.status}`);
      await res.arrayBuffer();
    };
    const cls = (name: string, paths: string[]) => measure(name, paths.map((p) => ({ label: p, run: get(p) })), false);
    const rows: ClassResult[] = [];
    rows.push(await cls("/models HTML, browse (each sort)", ["trending", "downloads", "likes", "created", "updated"].map((s) => `/models?sort=${s}`)));
    rows.push(await cls("/models HTML, task + library", ["/models?pipeline_tag=text-generation&library=transformers", "/models?pipeline_tag=text-to-image&library=diffusers"]));
    rows.push(await cls("/models HTML, search common", ["llama", "bert", "qwen"].map((s) => `/models?search=${s}`)));
    rows.push(await cls("/models HTML, search rare", ["/models?search=zephyr-7b", "/models?search=HuggingFaceH4%2Fzephyr-7b-beta"]));
    rows.push(await cls("/models HTML, search + filters", ["/models?search=llama&pipeline_tag=text-generation", "/models?search=bert&pipeline_tag=fill-mask"]));
    rows.push(await cls("/models HTML, deep page (page 101)", ["/models?sort=downloads&page=101", "/models?page=101"]));
    rows.push(await cls("/models data request (client navigation)", ["/models.data?search=llama", "/models.data?pipeline_tag=text-generation&library=transformers"]));
    rows.push(
      await cls("GET /api/models", [
        "/api/models?limit=30",
        "/api/models?search=llama&limit=30",
        "/api/models?filter=text-generation&library=transformers&sort=likes",
        "/api/models?search=zephyr-7b&full=true",
      ]),
    );
    rows.push(await cls("GET /api/models/{id}", ["/api/models/HuggingFaceH4/zephyr-7b-beta", "/api/models/HuggingFaceH4/zephyr-7b-beta?expand[]=inferenceProviderMapping"]));
    return { rows, rss: rssOf(server.child.pid!) };
  } finally {
    await server.stop();
  }
}

// ---- main ------------------------------------------------------------------------------------

async function runEngine(label: string, databaseUrl: string, handlerGoal: number): Promise<void> {
  if (synthetic) {
    const handle = openDatabase(databaseUrl);
    await (opt.db && label === "SQLite" ? migrate(handle) : ensureImported(handle, label, databaseUrl)).finally(() => handle.close());
    await runScale(label, databaseUrl, { rows: synthetic.rows, baselineRef: opt["baseline-ref"] });
    if (!opt.mixed) return;
  }
  if (opt.mixed) {
    if (!synthetic) {
      const handle = openDatabase(databaseUrl);
      await (opt.db && label === "SQLite" ? migrate(handle) : ensureImported(handle, label, databaseUrl)).finally(() => handle.close());
    }
    await runMixed(label, databaseUrl, DATA, { requests: Math.max(20, Number(opt.requests)), sets: 40, levels: opt.levels.split(",").map(Number).filter((n) => n > 0), importLevels: opt["import-levels"].split(",").map(Number).filter((n) => n > 0), baselineRef: opt["baseline-ref"], currentOnly: opt["current-only"], verbose: opt.verbose });
    return;
  }
  const handle = openDatabase(databaseUrl);
  try {
    if (opt.db && label === "SQLite") await migrate(handle);
    else await ensureImported(handle, label, databaseUrl);
    const t0 = performance.now();
    const built = await startBackgroundWork(handle);
    const { generation } = await openSnapshot(handle);
    console.log(
      `${label}: ${built ? `${built.rows.toLocaleString("en-US")} models; facet index ready` : "catalogue not indexable; ready"} in ${((performance.now() - t0) / 1000).toFixed(2)} s (once per catalogue generation, off the request path).`,
    );
    // Built again, apart and on this thread, to time it: the one above was built in a worker.
    const t1 = performance.now();
    const idx = await readFacetIndex(handle, generation);
    console.log(
      `${label}: facet index built in ${((performance.now() - t1) / 1000).toFixed(2)} s (once per catalogue generation, off the request path): ${idx?.rows.toLocaleString("en-US")} rows in ${idx?.profiles.toLocaleString("en-US")} facet profiles, ${((idx?.bytes ?? 0) / 1e6).toFixed(1)} MB of typed arrays.`,
    );
    const rows = opt["no-handler"] ? [] : await handlerClasses(handle, !opt["no-baseline"]);
    if (rows.length) printTable(`${label}, in the handler (${ITER} samples per query; goal p95 ≤ ${handlerGoal} ms)`, rows, handlerGoal);
  } finally {
    await handle.close();
  }
  if (!opt["no-http"]) {
    const { rows, rss } = await httpClasses(databaseUrl);
    printTable(`${label}, over HTTP (server process, uncompressed; goal p95 ≤ 50 ms for /models HTML)`, rows, 50);
    console.log(
      `\nServer RSS after the HTTP run: ${rss.rss.toFixed(0)} MB (peak ${rss.peak.toFixed(0)} MB; goal ≤ 300 MB), of which ${rss.anon.toFixed(0)} MB heap and other private memory and ${rss.file.toFixed(0)} MB file pages (SQLite's memory-mapped database and the loaded code).`,
    );
  }
}

/**
 * At --scale, a PostgreSQL database of its own beside the one TEST_DATABASE_URL names (created on
 * the same server if missing), so the tests' database keeps its catalogue and the import is cached.
 */
async function scaleDatabase(url: string, scale: SyntheticScale): Promise<string> {
  const name = `modelyard_bench_synthetic_${scale.replace(/\W+/g, "_").toLowerCase()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function main(): Promise<void> {
  console.log(`# bench:catalog — ${os.cpus().length} CPUs, Node ${process.version}, ${new Date().toISOString()}`);
  if (opt.only !== "postgres") {
    const file = opt.db ?? path.join(os.tmpdir(), "modelyard-bench", `catalog-${dataKey().replace(/[^\w.-]+/g, "_")}.db`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await runEngine("SQLite", `sqlite:${file}`, 20);
  }
  const pgUrl = process.env["TEST_DATABASE_URL"] || (process.env["DATABASE_URL"]?.startsWith("postgres") ? process.env["DATABASE_URL"] : undefined);
  if (pgUrl && opt.only !== "sqlite") await runEngine("PostgreSQL", SCALE ? await scaleDatabase(pgUrl, SCALE) : pgUrl, 40);
  else if (opt.only !== "sqlite") console.log("\nPostgreSQL: skipped (set TEST_DATABASE_URL=postgres://… to include it).");
}

await main();

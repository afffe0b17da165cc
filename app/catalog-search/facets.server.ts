import { type Kysely, type RawBuilder, sql } from "kysely";
import { isLanguageCode } from "#app/catalog/languages.ts";
import { type CatalogFilters, PARAM_BUCKETS, filtersKey, isUnfiltered } from "#app/catalog-search/listing-params.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { andAll, buildPredicates } from "#app/catalog-search/sql.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import {
  emptyTally,
  type FacetIndex,
  FacetIndexBuilder,
  type FacetSourceRow,
  type FacetTally,
  bareTags,
  isIndexableSpan,
} from "#app/catalog-search/facet-index.server.ts";
import type { Database } from "#app/db/schema.ts";
import { createSliceSizer, fixedSlices, yieldToEventLoop } from "#app/utils/time-slice.server.ts";

/**
 * Facet counts (task, library, licence, language, other tags, provider, size) for a filter set.
 *
 * Live GROUP BY over the whole catalogue costs 70–350 ms, so exact counts for large match sets are
 * computed off the request path and kept per catalogue generation (memory, then the facet_cache
 * table). A request that finds none gets counts over the first 10,001 matches, which are exact
 * lower bounds and say so (`exact: false`). Match sets that small are always counted exactly.
 */

export interface FacetCount {
  value: string;
  count: number;
}

export interface CatalogFacets {
  /** Models counted: every match when exact, else the size of the sample. */
  total: number;
  /** False when the counts are lower bounds taken from a sample of the matches. */
  exact: boolean;
  /** True when the counts are from an older catalogue generation (a fresh count is on its way). */
  stale: boolean;
  generation: number;
  tasks: FacetCount[];
  libraries: FacetCount[];
  licenses: FacetCount[];
  languages: FacetCount[];
  tags: FacetCount[];
  providers: FacetCount[];
  params: FacetCount[];
}

export const MAX_TAG_VALUES = 400;
// Slices are sized by time (app/utils/time-slice.server.ts): SQLite's driver is synchronous, so a
// slice holds the event loop for as long as it takes, and rows cost very different amounts.
const sliceSizer = () => createSliceSizer({ initial: 250, min: 25, max: 4_000 });

type Counter = FacetTally;
const newCounter = emptyTally;

const add = (m: Map<string, number>, k: string | null, n: number) => {
  if (k === null || k === "") return;
  m.set(k, (m.get(k) ?? 0) + n);
};

/** The `limit` most frequent values, most frequent first (ties by value). */
function sorted(m: Map<string, number>, limit = Infinity): FacetCount[] {
  let floor = 0;
  if (m.size > limit * 2) {
    // Tens of thousands of distinct tags: only those at or above the limit-th count can make the
    // list, and a numeric sort finds that count far faster than sorting every value by name.
    const counts = Uint32Array.from(m.values()).sort();
    floor = counts[counts.length - limit] ?? 0;
  }
  const out: FacetCount[] = [];
  for (const [value, count] of m) if (count >= floor) out.push({ value, count });
  return out.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, limit);
}

/** Languages and free tags come from model_tags; prefixed tags (license:, dataset:, arxiv:, …) are other facets or too many to list. */
function finish(c: Counter, exact: boolean, generation: number): CatalogFacets {
  const languages = new Map<string, number>();
  const tags = new Map<string, number>();
  for (const [t, n] of c.tags) {
    if (isLanguageCode(t)) languages.set(t, n);
    else tags.set(t, n);
  }
  return {
    total: c.total,
    exact,
    stale: false,
    generation,
    tasks: sorted(c.tasks),
    libraries: sorted(c.libraries),
    licenses: sorted(c.licenses),
    languages: sorted(languages),
    tags: sorted(tags, MAX_TAG_VALUES),
    providers: sorted(c.providers),
    params: PARAM_BUCKETS.filter((b) => c.params.has(b.id)).map((b) => ({ value: b.id, count: c.params.get(b.id) ?? 0 })),
  };
}

function bucketOf(params: number | null): string | null {
  if (params === null) return null;
  for (const b of PARAM_BUCKETS) if (params >= b.min && (b.max === null || params < b.max)) return b.id;
  return null;
}

/** Which rows one aggregation pass covers: an explicit id set, or a rowid range with filters. */
type Scope = { kind: "rids"; rids: number[] } | { kind: "range"; lo: number; hi: number; filters: RawBuilder<unknown> } | { kind: "all"; filters: RawBuilder<unknown> };

function scopeWhere(handle: DatabaseHandle, scope: Scope): RawBuilder<unknown> {
  if (scope.kind === "rids") {
    return handle.dialect === "sqlite"
      ? sql`m.rid in (select value from json_each(${JSON.stringify(scope.rids)}))`
      : sql`m.rid = any(${scope.rids}::int[])`;
  }
  if (scope.kind === "range") return sql`m.rid >= ${scope.lo} and m.rid < ${scope.hi} and ${scope.filters}`;
  return scope.filters;
}

/**
 * Counts in JavaScript over the narrow listing columns. A GROUP BY per facet (worst: tags, about
 * fifteen per model) sorts in a temporary B-tree and measured 10–50x slower than one pass here.
 * Tags and providers come from the row's own JSON lists, which the importer keeps in step with
 * model_tags and model_providers: model_tags' bare tags are the model's own plus its card's
 * languages (model_details.languages).
 */
async function aggregate(handle: DatabaseHandle, scope: Scope, c: Counter): Promise<number> {
  const t0 = performance.now();
  const rows = await sql<Omit<FacetSourceRow, "rid">>`select m.pipeline_tag, m.library_name, m.license, m.params, m.tags, m.providers, d.languages
    from models m left join model_details d on d.rid = m.rid where ${scopeWhere(handle, scope)}`.execute(handle.db);
  const t1 = performance.now();
  for (const r of rows.rows) {
    c.total++;
    add(c.tasks, r.pipeline_tag, 1);
    add(c.libraries, r.library_name, 1);
    add(c.licenses, r.license, 1);
    add(c.params, bucketOf(r.params === null ? null : Number(r.params)), 1);
    // ':' marks license:/dataset:/base_model:/arxiv:/region: tags, counted elsewhere or not at all.
    for (const t of bareTags(r.tags, r.languages)) add(c.tags, t, 1);
    if (r.providers !== "[]") for (const p of JSON.parse(r.providers) as string[]) add(c.providers, p, 1);
  }
  return heldMs(handle, t0, t1);
}

/**
 * How long a slice held the event loop: on SQLite the whole slice (its driver reads synchronously),
 * on PostgreSQL only the work on the rows after they arrived, since the wait for the server leaves
 * the loop free. Sized by wall time, PostgreSQL's slices shrank to round trips of a few rows, and
 * warm-up at 760k rows took 8.5 s instead of 5.8 s in one run.
 */
function heldMs(handle: DatabaseHandle, start: number, rowsArrived: number): number {
  const now = performance.now();
  return handle.dialect === "sqlite" ? now - start : now - rowsArrived;
}

const TRUE = sql`1 = 1`;

/** Exact counts over an explicit set of matches (at most a few thousand rows). */
export async function facetsForRids(handle: DatabaseHandle, rids: number[], exact: boolean): Promise<CatalogFacets> {
  const generation = await getCatalogueGeneration(handle.db);
  const index = facetIndexFor(handle, generation);
  if (index) return finish(index.tallyRids(rids), exact, generation);
  const c = newCounter();
  if (rids.length) await aggregate(handle, { kind: "rids", rids }, c);
  return finish(c, exact, generation);
}

/**
 * The lowest and highest row id (lo > hi when the catalogue is empty). Two subqueries, not
 * `select min(rid), max(rid)`: SQLite answers a lone min() or max() from the key, but both in one
 * select scan the table, some 40 ms at 760k rows in one synchronous call before every recount.
 */
async function ridBounds(handle: DatabaseHandle): Promise<{ lo: number; hi: number }> {
  // The benchmark's "today" side keeps the scanning form, so the comparison is with the old code.
  const b = fixedSlices()
    ? await sql<{ lo: number | null; hi: number | null }>`select min(rid) as lo, max(rid) as hi from models`.execute(handle.db)
    : await sql<{ lo: number | null; hi: number | null }>`select (select min(rid) from models) as lo, (select max(rid) from models) as hi`.execute(handle.db);
  return { lo: Number(b.rows[0]?.lo ?? 0), hi: Number(b.rows[0]?.hi ?? -1) };
}

/**
 * Exact counts over every match of `filters`, in rowid slices with the event loop free between
 * them: SQLite's driver is synchronous and would otherwise stall every request for the whole scan.
 */
export async function computeExactFacets(handle: DatabaseHandle, filters: CatalogFilters): Promise<CatalogFacets> {
  const generation = await getCatalogueGeneration(handle.db);
  const index = facetIndexFor(handle, generation) ?? (isUnfiltered(filters) ? await ensureFacetIndex(handle, generation) : null);
  const tally = !index ? null : fixedSlices() ? index.tallyFilters(filters) : await index.tallyFiltersInSlices(filters, yieldToEventLoop);
  if (tally) return finish(tally, true, generation);
  const preds = buildPredicates(handle.dialect, filters);
  const where = preds.length ? andAll(preds.map((p) => p.where)) : TRUE;
  const c = newCounter();
  const { lo, hi } = await ridBounds(handle);
  // Slices bound memory on both engines and, on SQLite, how long the event loop is held.
  const sizer = sliceSizer();
  for (let start = lo; start <= hi; ) {
    const n = sizer.size;
    sizer.record(await aggregate(handle, { kind: "range", lo: start, hi: start + n, filters: where }, c), n);
    start += n;
    await yieldToEventLoop();
  }
  return finish(c, true, generation);
}

// ---- facet index ---------------------------------------------------------------------------

interface Built {
  generation: number;
  /** Null when this generation's row ids were too sparse to index. */
  index: FacetIndex | null;
}

interface IndexRegistry {
  built: WeakMap<Kysely<Database>, Built>;
  building: WeakMap<Kysely<Database>, { generation: number; promise: Promise<FacetIndex | null> }>;
}
const REGISTRY = Symbol.for("modelyard.facet-index");
/**
 * On globalThis, not in module scope: `modelyard serve` (tsx) warms the index in its copy of this
 * module and the built server bundle, which loads another copy, answers the requests.
 */
const registry: IndexRegistry = ((globalThis as { [REGISTRY]?: IndexRegistry })[REGISTRY] ??= { built: new WeakMap(), building: new WeakMap() });
const { built, building } = registry;

/** The facet index of this catalogue generation, once built (see app/catalog/facet-index.server.ts). */
function facetIndexFor(handle: DatabaseHandle, generation: number): FacetIndex | null {
  const b = built.get(handle.db);
  return b && b.generation === generation ? b.index : null;
}

/**
 * Builds this generation's index unless it is built or being built; resolves with it (null when
 * the catalogue cannot be indexed). A build that fails is remembered as "no index" until the next
 * generation.
 */
export function ensureFacetIndex(handle: DatabaseHandle, generation: number): Promise<FacetIndex | null> {
  const db = handle.db;
  const done = built.get(db);
  if (done && done.generation === generation) return Promise.resolve(done.index);
  const running = building.get(db);
  if (running && running.generation === generation) return running.promise;
  const promise = buildFacetIndex(handle, generation)
    .catch((e: unknown) => {
      // Remembered, so a broken row does not start a full build on every request; the database
      // answers for this generation.
      register(handle, generation, null);
      throw e;
    })
    .finally(() => {
      if (building.get(db)?.promise === promise) building.delete(db);
    });
  building.set(db, { generation, promise });
  return promise;
}

/**
 * Reads every row's facet columns, in rowid slices with the event loop free between them, into a
 * new index for `generation`. Null when the row ids are too sparse to index (the caller then
 * counts in SQL) or an import changed the catalogue meanwhile (its own recount builds the next).
 */
async function buildFacetIndex(handle: DatabaseHandle, generation: number): Promise<FacetIndex | null> {
  const builder = new FacetIndexBuilder();
  const { lo, hi } = await ridBounds(handle);
  // Only a span past the floor of isIndexableSpan needs the row count (a cold count(*) at 760k
  // rows holds SQLite for some 7 ms).
  const countRows = async () => Number((await sql<{ n: number }>`select count(*) as n from models`.execute(handle.db)).rows[0]?.n ?? 0);
  if (!isIndexableSpan(hi - lo + 1, 0) && !isIndexableSpan(hi - lo + 1, await countRows())) {
    register(handle, generation, null);
    return null;
  }
  const sizer = sliceSizer();
  for (let start = lo; start <= hi; ) {
    const n = sizer.size;
    const t0 = performance.now();
    const rows = await sql<FacetSourceRow>`select m.rid, m.pipeline_tag, m.library_name, m.license, m.params, m.tags, m.providers, d.languages
      from models m left join model_details d on d.rid = m.rid where m.rid >= ${start} and m.rid < ${start + n}`.execute(handle.db);
    const t1 = performance.now();
    for (const r of rows.rows) builder.add(r);
    sizer.record(heldMs(handle, t0, t1), n);
    start += n;
    await yieldToEventLoop();
  }
  const index = fixedSlices() ? builder.finish(generation) : await builder.finishInSlices(generation, yieldToEventLoop);
  // An import that landed meanwhile made this a snapshot of an older generation: still right for
  // the caller's count of that generation, never served as the current one.
  if ((await getCatalogueGeneration(handle.db)) === generation) register(handle, generation, index);
  return index;
}

/** Records this generation's index (or that it has none), unless a newer one is recorded. */
function register(handle: DatabaseHandle, generation: number, index: FacetIndex | null): void {
  const previous = built.get(handle.db);
  if (!previous || previous.generation <= generation) built.set(handle.db, { generation, index });
}

/**
 * Exact count and facets of a filter set from the facet index alone, or null when the index is
 * not built for this generation or the filters need the database (search, author, prefixed tags).
 */
export async function facetsFromIndex(handle: DatabaseHandle, filters: CatalogFilters): Promise<CatalogFacets | null> {
  const generation = await getCatalogueGeneration(handle.db);
  const tally = facetIndexFor(handle, generation)?.tallyFilters(filters);
  return tally ? finish(tally, true, generation) : null;
}

/** The exact count of a filter set from the facet index alone, or null as for facetsFromIndex. */
export async function countFromIndex(handle: DatabaseHandle, filters: CatalogFilters): Promise<number | null> {
  const generation = await getCatalogueGeneration(handle.db);
  return facetIndexFor(handle, generation)?.countFilters(filters) ?? null;
}

/** Size of this generation's facet index, for benchmarks and the log; null before it is built. */
export async function describeFacetIndex(handle: DatabaseHandle): Promise<{ rows: number; profiles: number; bytes: number } | null> {
  const index = facetIndexFor(handle, await getCatalogueGeneration(handle.db));
  return index ? { rows: index.rows, profiles: index.profiles, bytes: index.bytes } : null;
}

/** Drops the facet index; benchmarks use it to measure the database-only path. */
export function forgetFacetIndex(handle: DatabaseHandle): void {
  built.delete(handle.db);
}

// ---- cache ---------------------------------------------------------------------------------

interface Entry {
  generation: number;
  facets: CatalogFacets;
}

const MEMORY_LIMIT = 256;
const memory = new WeakMap<Kysely<Database>, Map<string, Entry>>();
const inflight = new WeakMap<Kysely<Database>, Map<string, Promise<CatalogFacets>>>();
const MAX_QUEUED = 16;

function mem(db: Kysely<Database>): Map<string, Entry> {
  let m = memory.get(db);
  if (!m) memory.set(db, (m = new Map()));
  return m;
}

function remember(db: Kysely<Database>, key: string, e: Entry): void {
  const m = mem(db);
  m.delete(key);
  m.set(key, e);
  while (m.size > MEMORY_LIMIT) m.delete(m.keys().next().value as string);
}

async function readStored(db: Kysely<Database>, key: string): Promise<Entry | null> {
  const row = await db.selectFrom("facet_cache").select(["generation", "value"]).where("key", "=", key).executeTakeFirst();
  if (!row) return null;
  return { generation: Number(row.generation), facets: JSON.parse(row.value) as CatalogFacets };
}

async function store(db: Kysely<Database>, key: string, facets: CatalogFacets): Promise<void> {
  const value = JSON.stringify(facets);
  const computed_at = new Date().toISOString();
  await db
    .insertInto("facet_cache")
    .values({ key, generation: facets.generation, value, computed_at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ generation: facets.generation, value, computed_at }))
    .execute();
}

const cacheKey = (filters: CatalogFilters) => `facets:v1:${filtersKey(filters)}`;

/**
 * Exact facets for `filters` if some generation of them is known. `fresh` is false when they
 * predate the current catalogue generation (a recount is then scheduled).
 */
export async function getCachedFacets(handle: DatabaseHandle, filters: CatalogFilters): Promise<CatalogFacets | null> {
  const db = handle.db;
  const key = cacheKey(filters);
  const generation = await getCatalogueGeneration(db);
  let entry = mem(db).get(key) ?? null;
  if (!entry || entry.generation !== generation) {
    const stored = await readStored(db, key);
    if (stored && (!entry || stored.generation > entry.generation)) {
      entry = stored;
      remember(db, key, stored);
    }
  }
  if (!entry) return null;
  if (entry.generation === generation) return entry.facets;
  scheduleExactFacets(handle, filters);
  return { ...entry.facets, stale: true };
}

/**
 * Keeps exact counts of a small match set for this catalogue generation, in memory only: there is
 * one per typed search, too many to store, and recounting one costs a single capped collection.
 */
export function rememberExactFacets(handle: DatabaseHandle, filters: CatalogFilters, facets: CatalogFacets): void {
  if (facets.exact && !facets.stale) remember(handle.db, cacheKey(filters), { generation: facets.generation, facets });
}

/** A closed database (shutdown, tests) is expected; anything else is worth a line in the log. */
function logUnlessClosed(e: unknown): void {
  if (!(e instanceof Error && /closed|destroyed|terminat/i.test(e.message))) console.error("facet count failed:", e);
}

/** Starts (at most once per key, a few keys at a time) the exact count for a filter set. */
export function scheduleExactFacets(handle: DatabaseHandle, filters: CatalogFilters): Promise<CatalogFacets> | null {
  const db = handle.db;
  let running = inflight.get(db);
  if (!running) inflight.set(db, (running = new Map()));
  const key = cacheKey(filters);
  const existing = running.get(key);
  if (existing) return existing;
  if (running.size >= MAX_QUEUED) return null;
  const previous = [...running.values()].at(-1);
  const job = (async () => {
    // One recount at a time: they are long scans and would only slow each other down.
    if (previous) await previous.catch(() => undefined);
    const facets = await computeExactFacets(handle, filters);
    remember(db, key, { generation: facets.generation, facets });
    await store(db, key, facets);
    return facets;
  })();
  running.set(key, job);
  void job.then(
    () => running.delete(key),
    (e: unknown) => {
      running.delete(key);
      logUnlessClosed(e);
    },
  );
  return job;
}

/**
 * The unfiltered facets, used as exact per-value selectivities by the planner. Null only before
 * the first count of a catalogue has finished (it is then started).
 */
export async function getCatalogueStats(handle: DatabaseHandle): Promise<CatalogFacets | null> {
  const empty: CatalogFilters = { search: null, author: null, pipelineTag: null, library: null, license: null, tags: [], provider: null, paramsMin: null, paramsMax: null };
  const cached = await getCachedFacets(handle, empty);
  // Stored counts outlive the process; the index is rebuilt in each one, in the background.
  if (cached && !cached.stale) ensureFacetIndex(handle, cached.generation).catch(logUnlessClosed);
  if (cached) return cached;
  scheduleExactFacets(handle, empty);
  return null;
}

/** Waits for the unfiltered counts and the facet index; for warm-up after an import and for benchmarks. */
export async function warmCatalogueStats(handle: DatabaseHandle): Promise<CatalogFacets> {
  const empty: CatalogFilters = { search: null, author: null, pipelineTag: null, library: null, license: null, tags: [], provider: null, paramsMin: null, paramsMax: null };
  const cached = await getCachedFacets(handle, empty);
  if (cached && !cached.stale) {
    await ensureFacetIndex(handle, cached.generation);
    return cached;
  }
  const job = scheduleExactFacets(handle, empty);
  return job ?? computeExactFacets(handle, empty);
}

/** Resolves when every scheduled recount has finished; benchmarks use it to measure steady state. */
export async function settleFacetJobs(handle: DatabaseHandle): Promise<void> {
  for (;;) {
    const jobs = [...(inflight.get(handle.db)?.values() ?? [])];
    if (!jobs.length) return;
    await Promise.allSettled(jobs);
  }
}

/** Drops the in-memory cache; benchmarks use it to measure cold requests. */
export function forgetFacetMemory(handle: DatabaseHandle): void {
  memory.delete(handle.db);
}

/** Baseline for the benchmark: every facet by a live GROUP BY over all matches, no cache. */
export async function liveFacetsBaseline(handle: DatabaseHandle, filters: CatalogFilters): Promise<CatalogFacets> {
  const generation = await getCatalogueGeneration(handle.db);
  const preds = buildPredicates(handle.dialect, filters);
  const where = preds.length ? andAll(preds.map((p) => p.where)) : TRUE;
  const c = newCounter();
  const group = async (col: string, m: Map<string, number>) => {
    const r = await sql<{ v: string | null; n: number }>`select ${sql.raw(col)} as v, count(*) as n from models m where ${where} group by 1`.execute(handle.db);
    for (const x of r.rows) add(m, x.v, Number(x.n));
  };
  await group("m.pipeline_tag", c.tasks);
  await group("m.library_name", c.libraries);
  await group("m.license", c.licenses);
  const tags = await sql<{ v: string; n: number }>`select t.tag as v, count(*) as n from model_tags t join models m on m.rid = t.rid
    where ${where} and t.tag not like '%:%' group by t.tag`.execute(handle.db);
  for (const x of tags.rows) add(c.tags, x.v, Number(x.n));
  const prov = await sql<{ v: string; n: number }>`select p.provider as v, count(*) as n from model_providers p join models m on m.rid = p.rid
    where ${where} group by p.provider`.execute(handle.db);
  for (const x of prov.rows) add(c.providers, x.v, Number(x.n));
  const total = await sql<{ n: number }>`select count(*) as n from models m where ${where}`.execute(handle.db);
  c.total = Number(total.rows[0]?.n ?? 0);
  return finish(c, true, generation);
}

export { isUnfiltered };

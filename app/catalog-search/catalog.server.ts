import { type Kysely, type RawBuilder, sql } from "kysely";
import type { ListExtras } from "#app/catalog/hub-api.ts";
import { COUNT_CAP, type CatalogFilters, type SortKey, filtersKey, isUnfiltered } from "#app/catalog-search/listing-params.ts";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { DatabaseHandle, DialectName } from "#app/db/client.server.ts";
import {
  type Cursor,
  type ListRow,
  afterWhere,
  type Pred,
  ROW_COLUMNS,
  SORT_COLUMN,
  andAll,
  buildPredicates,
  ftsPhrase,
  likePattern,
  orderBy,
  rowToSummary,
} from "#app/catalog-search/sql.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";
import {
  type CatalogFacets,
  countFromIndex,
  facetsForRids,
  facetsFromIndex,
  getCachedFacets,
  getCatalogueStats,
  rememberExactFacets,
  scheduleExactFacets,
} from "#app/catalog-search/facets.server.ts";

/**
 * The catalogue listing planner. A sorted page can be found two ways:
 *
 *  - walk: read the sort index (or the task's sort index) in order and keep rows that pass the
 *    filters, stopping after one page. Cheap when matches are common, hopeless when they are rare.
 *  - collect: take every match of the most selective filter from its own index (FTS5 trigram or
 *    pg_trgm for search, model_tags, …), check the rest, and sort those few rows.
 *
 * Per-value counts (exact, from the cached unfiltered facets) or a capped index probe estimate
 * each filter's selectivity; the walk gets a row budget, and falls back to collect when the budget
 * runs out before the page is full, so a misestimate costs one bounded scan, never a full one.
 */

export interface PageQuery {
  sort: SortKey;
  ascending: boolean;
  offset: number;
  limit: number;
  /** Resume after this row (keyset pagination, for the API's Link: rel="next"). */
  after?: Cursor | null;
}

export interface CatalogPage {
  models: CatalogModelSummary[];
  /** How the page was found, for benchmarks and debugging. */
  plan: string;
  /** Where the next page starts, when this one was full. */
  next: Cursor | null;
}

export interface CatalogCount {
  /** Exact when `exact`, else a lower bound (COUNT_CAP + 1 means "more than COUNT_CAP"). */
  value: number;
  exact: boolean;
}

const PROBE_CAP = 5_000;
const MAX_PROBE = 60_000;
const PG_EXACT_BELOW = 3_000;
/** Rows a walk may read per row it is expected to read before giving up on its estimate. */
const WALK_SLACK = 4;
const MIN_WALK_BUDGET = 4_000;
/** How far a walk may go when the best filter is only known to be common. */
const MAX_BLIND_WALK = 150_000;
/** A collected row costs a lookup and a sort slot; a walked row costs an index step and a check. */
const COLLECT_COST = 6;

interface Estimate {
  pred: Pred;
  /** Matching rows; exact when `exact`. */
  n: number;
  exact: boolean;
  /** Every matching row id, when the probe had to read them anyway (a search). */
  rids?: number[];
}

type Stats = CatalogFacets | null;

function statCount(stats: Stats, pred: Pred): number | null {
  if (!stats || stats.stale) return null;
  const find = (list: Array<{ value: string; count: number }>) => list.find((x) => x.value === pred.value)?.count ?? 0;
  switch (pred.kind) {
    case "task":
      return find(stats.tasks);
    case "library":
      return find(stats.libraries);
    case "license":
      return find(stats.licenses);
    case "provider":
      return find(stats.providers);
    case "tag": {
      const hit = stats.languages.find((x) => x.value === pred.value) ?? stats.tags.find((x) => x.value === pred.value);
      // Only the most common tags are kept, so a tag not listed may still exist: probe it.
      return hit ? hit.count : null;
    }
    default:
      return null;
  }
}

/**
 * PostgreSQL's own row estimate for a query. A GIN (pg_trgm) scan builds its whole bitmap before
 * the first row, so counting even a capped number of matches of a common term costs 40+ ms,
 * while the planner's estimate from trigram statistics costs one EXPLAIN.
 */
async function plannerEstimate(handle: DatabaseHandle, q: RawBuilder<unknown>): Promise<number> {
  const r = await sql<{ "QUERY PLAN": unknown }>`explain (format json) ${q}`.execute(handle.db);
  const plan = r.rows[0]?.["QUERY PLAN"];
  const parsed: unknown = typeof plan === "string" ? JSON.parse(plan) : plan;
  const rows = Array.isArray(parsed) ? (parsed[0] as { Plan?: { "Plan Rows"?: number } } | undefined)?.Plan?.["Plan Rows"] : undefined;
  return typeof rows === "number" ? rows : Number.POSITIVE_INFINITY;
}

interface Probed {
  n: number;
  rids?: number[];
}

interface SearchIds {
  rids: number[];
  /** The cap the ids were read up to; fewer ids than this means every match. */
  cap: number;
}

const SEARCH_MEMO_LIMIT = 64;
/** Only small match sets are kept: they are the ones a trigram scan is paid for. */
const SEARCH_MEMO_MAX_IDS = COUNT_CAP + 1;
const searchMemo = new WeakMap<DatabaseHandle["db"], Map<string, Promise<SearchIds>>>();

/**
 * The ids matching a search term (up to a cap), shared by the requests of one catalogue
 * generation. A trigram scan (GIN or FTS5) reads the posting list of every trigram in the term,
 * so even a rare term costs 10–120 ms; one /models request needs the matches for its probe, its
 * page and its count, and a typed-out search asks again for the same term.
 */
async function searchIds(handle: DatabaseHandle, pred: Pred, cap: number, stats: Stats): Promise<SearchIds> {
  const read = async (): Promise<SearchIds> => {
    const r = await sql<{ rid: number }>`${pred.driver!} limit ${cap}`.execute(handle.db);
    return { rids: r.rows.map((x) => Number(x.rid)), cap };
  };
  if (!stats || stats.stale) return read();
  let memo = searchMemo.get(handle.db);
  if (!memo) searchMemo.set(handle.db, (memo = new Map()));
  const key = searchKey(pred, stats);
  const known = await knownSearchIds(handle, pred, stats);
  if (known && (known.rids.length < known.cap || known.cap >= cap)) return { rids: known.rids.slice(0, cap), cap };
  const job = read();
  memo.delete(key);
  memo.set(key, job);
  const m = memo;
  void job.then(
    (x) => {
      if (x.rids.length > SEARCH_MEMO_MAX_IDS) m.delete(key);
    },
    () => m.delete(key),
  );
  while (memo.size > SEARCH_MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  return job;
}

const searchKey = (pred: Pred, stats: CatalogFacets) => `${stats.generation}\u0000${pred.value.toLowerCase()}`;

/** What an earlier request of this generation read for the term, if anything. */
async function knownSearchIds(handle: DatabaseHandle, pred: Pred, stats: Stats): Promise<SearchIds | null> {
  if (!stats || stats.stale) return null;
  const known = searchMemo.get(handle.db)?.get(searchKey(pred, stats));
  return known ? known.catch(() => null) : null;
}

/**
 * Every match of a search when there are few enough to keep, so a page can be sorted
 * from them and a count taken without another trigram scan. Null when the term is too common.
 */
async function completeSearchIds(handle: DatabaseHandle, driver: Estimate, stats: Stats): Promise<number[] | null> {
  if (driver.rids) return driver.rids;
  if (driver.pred.kind !== "search" || !driver.pred.driver) return null;
  const found = await searchIds(handle, driver.pred, SEARCH_MEMO_MAX_IDS, stats);
  return found.rids.length < found.cap ? found.rids : null;
}

const PLAN_MEMO_LIMIT = 256;
const planMemo = new WeakMap<DatabaseHandle["db"], Map<string, Promise<unknown>>>();

/** A planner input that only changes with the data (an estimate, a walk's edge), per generation. */
function memoized<T>(handle: DatabaseHandle, stats: Stats, key: string, compute: () => Promise<T>): Promise<T> {
  if (!stats || stats.stale) return compute();
  let memo = planMemo.get(handle.db);
  if (!memo) planMemo.set(handle.db, (memo = new Map()));
  const k = `${stats.generation}\u0000${key}`;
  const hit = memo.get(k) as Promise<T> | undefined;
  if (hit) return hit;
  const job = compute();
  const m = memo;
  m.set(k, job);
  job.catch(() => m.delete(k));
  while (m.size > PLAN_MEMO_LIMIT) m.delete(m.keys().next().value as string);
  return job;
}

/** Drops remembered search matches and planner inputs; benchmarks use it to measure first requests. */
export function forgetSearchIds(handle: DatabaseHandle): void {
  searchMemo.delete(handle.db);
  planMemo.delete(handle.db);
}

async function probe(handle: DatabaseHandle, pred: Pred, cap: number, stats: Stats): Promise<Probed> {
  if (!pred.driver) return { n: Number.POSITIVE_INFINITY };
  if (pred.kind === "search") {
    // A term an earlier request read the matches of: those are exact and free.
    const known = await knownSearchIds(handle, pred, stats);
    if (known && known.rids.length < known.cap) return { n: known.rids.length, rids: known.rids };
    if (known && known.cap >= cap) return { n: known.rids.length };
    if (handle.dialect === "postgres") {
      const guess = await memoized(handle, stats, `estimate\u0000${pred.value.toLowerCase()}`, () => plannerEstimate(handle, pred.driver!));
      // Trust the estimate for common terms; read the matches when it says the term is rare.
      if (guess >= PG_EXACT_BELOW) return { n: Math.max(cap, Math.round(guess)) };
    }
    // Up to the size kept, reading the capped ids costs what counting them does, and the page and
    // the count reuse them; beyond it, counting in SQL is cheaper than handing ids to JavaScript.
    const found = handle.dialect === "postgres" || cap <= SEARCH_MEMO_MAX_IDS ? await searchIds(handle, pred, cap, stats) : null;
    if (!found) return { n: await cappedCount(handle, pred, cap, stats) };
    return found.rids.length < cap ? { n: found.rids.length, rids: found.rids } : { n: found.rids.length };
  }
  return { n: await cappedCount(handle, pred, cap, stats) };
}

/** Matches of one filter, counted up to `cap` from its own index; once per generation. */
function cappedCount(handle: DatabaseHandle, pred: Pred, cap: number, stats: Stats): Promise<number> {
  return memoized(handle, stats, `count\u0000${pred.kind}\u0000${pred.kind === "search" ? pred.value.toLowerCase() : pred.value}\u0000${cap}`, async () => {
    const r = await sql<{ n: number }>`select count(*) as n from (${pred.driver!} limit ${cap}) x`.execute(handle.db);
    return Number(r.rows[0]?.n ?? 0);
  });
}

async function estimate(handle: DatabaseHandle, preds: Pred[], stats: Stats): Promise<Estimate[]> {
  const known = preds.map((pred) => ({ pred, n: statCount(stats, pred) }));
  // A probe only has to count far enough to tell whether it beats the best exact count.
  const bestExact = Math.min(...known.filter((k) => k.n !== null).map((k) => k.n!));
  const cap = Number.isFinite(bestExact) ? Math.min(MAX_PROBE, Math.max(PROBE_CAP, bestExact + 1)) : PROBE_CAP;
  return Promise.all(
    known.map(async ({ pred, n }): Promise<Estimate> => {
      if (n !== null) return { pred, n, exact: true };
      const counted = await probe(handle, pred, cap, stats);
      return { pred, n: counted.n, exact: counted.n < cap, rids: counted.rids };
    }),
  );
}

async function catalogueSize(handle: DatabaseHandle, stats: Stats): Promise<number> {
  if (stats) return stats.total;
  // Before the first facet count: rowids are dense enough for an estimate.
  const r = await sql<{ n: number | null }>`select max(rid) as n from models`.execute(handle.db);
  return Number(r.rows[0]?.n ?? 0);
}

function indexName(sort: SortKey, byTask: boolean, dialect: DialectName): RawBuilder<unknown> {
  if (dialect !== "sqlite") return sql``;
  const col = SORT_COLUMN[sort];
  return sql.raw(` indexed by ${byTask ? `models_task_${col}` : `models_${col}`}`);
}

interface Rows {
  models: CatalogModelSummary[];
  last: Cursor | null;
}

async function runRows(handle: DatabaseHandle, q: RawBuilder<ListRow>, sort: SortKey): Promise<Rows> {
  const r = await q.execute(handle.db);
  const last = r.rows.at(-1);
  const col = SORT_COLUMN[sort];
  return {
    models: r.rows.map(rowToSummary),
    last: last ? { v: (last as unknown as Record<string, string | number | null>)[col] ?? null, rid: Number(last.rid) } : null,
  };
}

/**
 * The row a walk of `budget` rows ends on, as a condition that keeps only rows up to it. Null
 * when the walk would cover every row anyway.
 */
async function budgetBound(
  handle: DatabaseHandle,
  page: PageQuery,
  task: string | null,
  budget: number,
  stats: Stats,
): Promise<RawBuilder<unknown> | null> {
  const col = SORT_COLUMN[page.sort];
  const c = sql.raw(`m.${col}`);
  const taskWhere = task === null ? sql`` : sql`where m.pipeline_tag = ${task}`;
  // Where a walk of `budget` rows ends depends on the data alone: once per generation.
  const edge = await memoized(handle, stats, `edge\u0000${page.sort}\u0000${page.ascending}\u0000${task ?? ""}\u0000${budget}`, async () => {
    const r = await sql<{ v: string | number | null; rid: number }>`
      select m.${sql.raw(col)} as v, m.rid from models m${indexName(page.sort, task !== null, handle.dialect)} ${taskWhere}
      order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit 1 offset ${budget - 1}`.execute(handle.db);
    return r.rows[0] ?? null;
  });
  if (!edge) return null;
  const v = edge.v;
  const rid = Number(edge.rid);
  if (!page.ascending) {
    // A range on the column (not only an OR), so the index scan stops at the edge: as a filter
    // alone, PostgreSQL read all 760k index entries for a rare term (940 ms).
    return v === null ? sql`(${c} is not null or m.rid <= ${rid})` : sql`(${c} >= ${v} and (${c} > ${v} or m.rid <= ${rid}))`;
  }
  return v === null ? sql`(${c} is null and m.rid >= ${rid})` : sql`(${c} is null or ${c} < ${v} or (${c} = ${v} and m.rid >= ${rid}))`;
}

async function walk(
  handle: DatabaseHandle,
  preds: Pred[],
  page: PageQuery,
  budget: number | null,
  stats: Stats,
): Promise<Rows & { complete: boolean }> {
  const taskPred = preds.find((p) => p.kind === "task") ?? null;
  const task = taskPred?.value ?? null;
  const bound = budget === null ? null : await budgetBound(handle, page, task, budget, stats);
  const conds = preds.map((p) => p.walkWhere ?? p.where);
  if (bound) conds.push(bound);
  const where = andAll(conds);
  const order = orderBy(handle.dialect, page.sort, page.ascending);
  let rows: Rows;
  if (handle.dialect === "postgres") {
    // Ids first, whole rows for the page after: every row an OFFSET skips is otherwise fetched
    // from the heap in full, and the sort indexes answer an id-only walk by themselves
    // (offset 3,000 in a task: 55 ms against a few).
    const ids = await sql<{ rid: number }>`select m.rid from models m where ${where} order by ${order} limit ${page.limit} offset ${page.offset}`.execute(
      handle.db,
    );
    rows = await rowsByRid(
      handle,
      ids.rows.map((x) => Number(x.rid)),
      page.sort,
    );
  } else {
    rows = await runRows(
      handle,
      sql<ListRow>`select ${ROW_COLUMNS} from models m${indexName(page.sort, task !== null, handle.dialect)}
        where ${where} order by ${order} limit ${page.limit} offset ${page.offset}`,
      page.sort,
    );
  }
  return { ...rows, complete: bound === null || rows.models.length === page.limit };
}

/** The driver's row ids: the ids its probe already read, else its index query. */
function driverSource(handle: DatabaseHandle, driver: Estimate): RawBuilder<unknown> {
  if (!driver.rids) return driver.pred.driver!;
  return handle.dialect === "sqlite"
    ? sql`select value as rid from json_each(${JSON.stringify(driver.rids)})`
    : sql`select unnest(${driver.rids}::int[]) as rid`;
}

function driverJoin(handle: DatabaseHandle, driver: Estimate): RawBuilder<unknown> {
  // SQLite: CROSS JOIN fixes the join order, so the sort index cannot take over the plan, and the
  // narrow index answers every check and sort key without reading whole rows.
  // PostgreSQL: a materialized CTE does the same.
  return handle.dialect === "sqlite"
    ? sql`(${driverSource(handle, driver)}) d cross join models m indexed by models_narrow on m.rid = d.rid`
    : sql`d join models m on m.rid = d.rid`;
}

function withDriver(handle: DatabaseHandle, driver: Estimate): RawBuilder<unknown> {
  return handle.dialect === "postgres" ? sql`with d as materialized (${driverSource(handle, driver)}) ` : sql``;
}

/** Whole rows for ids in the given order. */
async function rowsByRid(handle: DatabaseHandle, rids: number[], sort: SortKey): Promise<Rows> {
  if (!rids.length) return { models: [], last: null };
  const inList = handle.dialect === "sqlite" ? sql`m.rid in (select value from json_each(${JSON.stringify(rids)}))` : sql`m.rid = any(${rids}::int[])`;
  const r = await sql<ListRow>`select ${ROW_COLUMNS} from models m where ${inList}`.execute(handle.db);
  const byRid = new Map(r.rows.map((x) => [Number(x.rid), x]));
  const ordered = rids.map((id) => byRid.get(id)).filter((x): x is ListRow => x !== undefined);
  const last = ordered.at(-1);
  const col = SORT_COLUMN[sort];
  return {
    models: ordered.map(rowToSummary),
    last: last ? { v: (last as unknown as Record<string, string | number | null>)[col] ?? null, rid: Number(last.rid) } : null,
  };
}

async function collect(handle: DatabaseHandle, preds: Pred[], found: Estimate, page: PageQuery, stats: Stats): Promise<Rows> {
  const rids = await completeSearchIds(handle, found, stats);
  const driver = rids ? { ...found, rids } : found;
  const rest = preds.filter((p) => p !== driver.pred).map((p) => p.where);
  // Sort the matches by id and key alone, then read whole rows for the one page.
  const r = await sql<{ rid: number }>`${withDriver(handle, driver)}select m.rid from ${driverJoin(handle, driver)}
    where ${andAll(rest)} order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit ${page.limit} offset ${page.offset}`.execute(handle.db);
  return rowsByRid(
    handle,
    r.rows.map((x) => Number(x.rid)),
    page.sort,
  );
}

function pickDriver(ests: Estimate[]): Estimate | null {
  let best: Estimate | null = null;
  // A capped probe is a lower bound: it only wins against exact counts above it.
  const rank = (e: Estimate) => (e.exact ? e.n : e.n * 4);
  for (const e of ests) if (e.pred.driver && (!best || rank(e) < rank(best))) best = e;
  return best;
}

/** One sorted page of models matching `filters`. */
export async function listCatalogPage(
  handle: DatabaseHandle,
  filters: CatalogFilters,
  page: PageQuery,
  stats: Stats,
): Promise<CatalogPage> {
  const found = await planPage(handle, filters, page, stats);
  return { models: found.models, plan: found.plan, next: found.models.length === page.limit ? found.last : null };
}

async function planPage(handle: DatabaseHandle, filters: CatalogFilters, page: PageQuery, stats: Stats): Promise<Rows & { plan: string }> {
  const preds = buildPredicates(handle.dialect, filters);
  const cursor: Pred | null = page.after
    ? { kind: "params", value: "", where: afterWhere(page.sort, page.ascending, page.after), driver: null }
    : null;
  const withCursor = cursor ? [...preds, cursor] : preds;
  if (preds.length === 0) return { ...(await walk(handle, withCursor, page, null, stats)), plan: "walk" };
  const [ests, total] = await Promise.all([estimate(handle, preds, stats), catalogueSize(handle, stats)]);
  const driver = pickDriver(ests);
  if (ests.some((e) => e.exact && e.n === 0)) return { models: [], last: null, plan: "empty" };

  const taskEst = ests.find((e) => e.pred.kind === "task");
  const walkRows = taskEst ? taskEst.n : total;
  // Independence is the usual guess; correlated filters only make the walk end sooner.
  let matches = walkRows;
  for (const e of ests) if (e !== taskEst) matches *= Math.min(1, e.n / Math.max(total, 1));
  const need = page.offset + page.limit;
  const walkCost = matches <= 0 ? walkRows : Math.min(walkRows, (need * walkRows) / matches);
  const collectCost = driver ? driver.n * COLLECT_COST : Number.POSITIVE_INFINITY;

  // A probe that hit its cap only says "common": the walk is then worth a bounded try first.
  const driverCapped = driver !== null && !driver.exact;
  if (walkCost <= collectCost || driverCapped) {
    const budget = driverCapped
      ? Math.min(MAX_BLIND_WALK, Math.max(MIN_WALK_BUDGET, Math.ceil(walkCost)))
      : Math.max(MIN_WALK_BUDGET, Math.ceil(walkCost * WALK_SLACK));
    // A cursor moves the start of the walk, so a budget counted from the top would be wrong.
    const w = await walk(handle, withCursor, page, driver && !cursor && budget < walkRows ? budget : null, stats);
    if (w.complete) return { ...w, plan: `walk(${taskEst ? "task index" : "sort index"})` };
    if (driver) return { ...(await collect(handle, withCursor, driver, page, stats)), plan: `walk→collect(${driver.pred.kind})` };
  }
  if (driver) return { ...(await collect(handle, withCursor, driver, page, stats)), plan: `collect(${driver.pred.kind})` };
  return { ...(await walk(handle, withCursor, page, null, stats)), plan: "walk(full)" };
}

/** Up to `cap` matching row ids (cap + 1 tells "more than cap"), driven by the most selective filter. */
export async function collectMatchIds(handle: DatabaseHandle, filters: CatalogFilters, stats: Stats, cap = COUNT_CAP): Promise<number[]> {
  const preds = buildPredicates(handle.dialect, filters);
  const limit = cap + 1;
  if (preds.length === 0) {
    const r = await sql<{ rid: number }>`select m.rid from models m limit ${limit}`.execute(handle.db);
    return r.rows.map((x) => Number(x.rid));
  }
  const ests = await estimate(handle, preds, stats);
  if (ests.some((e) => e.exact && e.n === 0)) return [];
  const picked = pickDriver(ests);
  let driver = picked;
  if (picked && picked.pred.kind === "search" && !picked.rids && picked.pred.driver) {
    // Read (and keep) the capped matches once: later counts and pages of the term reuse them.
    const found = await searchIds(handle, picked.pred, Math.max(limit, SEARCH_MEMO_MAX_IDS), stats);
    if (found.rids.length < found.cap) driver = { ...picked, rids: found.rids };
    else if (preds.length === 1) return found.rids.slice(0, limit);
  }
  if (!driver) {
    const r = await sql<{ rid: number }>`select m.rid from models m where ${andAll(preds.map((p) => p.where))} limit ${limit}`.execute(handle.db);
    return r.rows.map((x) => Number(x.rid));
  }
  const rest = preds.filter((p) => p !== driver.pred).map((p) => p.where);
  if (rest.length === 0) {
    // One filter: its own index has the answer, no row needs reading.
    const r = await sql<{ rid: number }>`select d.rid from (${driverSource(handle, driver)}) d limit ${limit}`.execute(handle.db);
    return r.rows.map((x) => Number(x.rid));
  }
  if (handle.dialect === "postgres" && !driver.rids) {
    // Unordered and capped, PostgreSQL's own plan (a BitmapAnd of the filters' indexes) beats a
    // driver pinned first: the materialized CTE read every row of the driver before the first
    // match (fill-mask + "bert": 650 ms against 75 ms).
    const r = await sql<{ rid: number }>`select m.rid from models m where ${andAll(preds.map((p) => p.where))} limit ${limit}`.execute(handle.db);
    return r.rows.map((x) => Number(x.rid));
  }
  const r = await sql<{ rid: number }>`${withDriver(handle, driver)}select m.rid from ${driverJoin(handle, driver)}
    where ${andAll(rest)} limit ${limit}`.execute(handle.db);
  return r.rows.map((x) => Number(x.rid));
}

/** A single filter's exact count, when the unfiltered facets hold it. */
function exactFromStats(handle: DatabaseHandle, filters: CatalogFilters, stats: Stats): number | null {
  if (!stats || stats.stale || !stats.exact) return null;
  if (isUnfiltered(filters)) return stats.total;
  const preds = buildPredicates(handle.dialect, filters);
  if (preds.length !== 1) return null;
  return statCount(stats, preds[0]!);
}

export interface CatalogResult {
  models: CatalogModelSummary[];
  count: CatalogCount;
  facets: CatalogFacets;
  plan: string;
}

/**
 * Everything the /models page shows for one view: the page of rows, the (capped) count and the
 * facet counts. The count and the facets share one capped collection of match ids.
 */
export async function browseCatalog(handle: DatabaseHandle, filters: CatalogFilters, page: PageQuery): Promise<CatalogResult> {
  const stats = await getCatalogueStats(handle);
  const [list, counted] = await Promise.all([listCatalogPage(handle, filters, page, stats), countAndFacets(handle, filters, stats)]);
  return { models: list.models, plan: list.plan, ...counted };
}

interface Counted {
  count: CatalogCount;
  facets: CatalogFacets;
}

const COUNTED_LIMIT = 500;
const countedCache = new WeakMap<DatabaseHandle["db"], Map<string, Counted>>();
/** Counts asked for without facets (the API's and the benchmark's), per catalogue generation. */
const countMemo = new WeakMap<DatabaseHandle["db"], Map<string, CatalogCount>>();

/**
 * Count and facets for a filter set, remembered per catalogue generation: paging and re-sorting a
 * view (most navigations) keep its filters, so they cost nothing after the first request.
 */
export async function countAndFacets(handle: DatabaseHandle, filters: CatalogFilters, stats: Stats): Promise<Counted> {
  const generation = await getCatalogueGeneration(handle.db);
  let cache = countedCache.get(handle.db);
  if (!cache) countedCache.set(handle.db, (cache = new Map()));
  const key = `${generation}:${filtersKey(filters)}`;
  const hit = cache.get(key);
  if (hit && hit.facets.exact && !hit.facets.stale) return hit;
  if (hit) {
    // A sample was served before; switch to the exact counts once their recount has landed.
    const exact = await getCachedFacets(handle, filters);
    if (!exact || exact.stale || !exact.exact) return hit;
    const upgraded: Counted = { count: { value: exact.total, exact: exact.total <= COUNT_CAP || hit.count.exact }, facets: exact };
    cache.set(key, upgraded);
    return upgraded;
  }
  const fresh = await computeCountAndFacets(handle, filters, stats);
  cache.delete(key);
  cache.set(key, fresh);
  while (cache.size > COUNTED_LIMIT) cache.delete(cache.keys().next().value as string);
  return fresh;
}

/** Drops remembered counts; benchmarks use it to measure first requests. */
export function forgetCounts(handle: DatabaseHandle): void {
  countedCache.delete(handle.db);
  countMemo.delete(handle.db);
}

async function computeCountAndFacets(handle: DatabaseHandle, filters: CatalogFilters, stats: Stats): Promise<Counted> {
  const cached = await getCachedFacets(handle, filters);
  if (cached && !cached.stale && cached.exact) return { count: { value: cached.total, exact: true }, facets: cached };
  // Filters without a search or an author: exact, whatever the size, from the in-memory index.
  const indexed = await facetsFromIndex(handle, filters);
  if (indexed) {
    rememberExactFacets(handle, filters, indexed);
    return { count: { value: indexed.total, exact: true }, facets: indexed };
  }
  const exact = exactFromStats(handle, filters, stats);
  if (exact !== null && exact > COUNT_CAP) {
    // A single common filter: the count is known; its facets come from the cache or a sample.
    const facets = cached ?? (await sampleFacets(handle, filters, stats));
    return { count: { value: exact, exact: true }, facets };
  }
  const rids = await collectMatchIds(handle, filters, stats);
  const complete = rids.length <= COUNT_CAP;
  if (complete) {
    const facets = await facetsForRids(handle, rids, true);
    rememberExactFacets(handle, filters, facets);
    return { count: { value: rids.length, exact: true }, facets };
  }
  scheduleExactFacets(handle, filters);
  return { count: { value: rids.length, exact: false }, facets: cached ?? (await facetsForRids(handle, rids.slice(0, FACET_SAMPLE), false)) };
}

/**
 * Rows read for the stand-in facets of a large match set, shown until its exact recount lands.
 * They are lower bounds either way; reading 2,000 rows instead of 10,000 takes a first request on
 * PostgreSQL (random heap reads) from some 150 ms to some 30.
 */
export const FACET_SAMPLE = 2_000;

async function sampleFacets(handle: DatabaseHandle, filters: CatalogFilters, stats: Stats): Promise<CatalogFacets> {
  scheduleExactFacets(handle, filters);
  const rids = await collectMatchIds(handle, filters, stats, FACET_SAMPLE);
  return facetsForRids(handle, rids.slice(0, FACET_SAMPLE), rids.length <= FACET_SAMPLE);
}

/** Count only (capped), for the API and benchmarks. */
export async function countCatalog(handle: DatabaseHandle, filters: CatalogFilters, stats: Stats): Promise<CatalogCount> {
  const exact = exactFromStats(handle, filters, stats);
  if (exact !== null) return { value: exact, exact: true };
  // The facets' exact recount, once it has landed for this generation, carries the count too.
  const cached = await getCachedFacets(handle, filters);
  if (cached && cached.exact && !cached.stale) return { value: cached.total, exact: true };
  const key = `${await getCatalogueGeneration(handle.db)}:${filtersKey(filters)}`;
  const known = countedCache.get(handle.db)?.get(key) ?? countMemo.get(handle.db)?.get(key);
  if (known) return "count" in known ? known.count : known;
  const indexed = await countFromIndex(handle, filters);
  if (indexed !== null) return { value: indexed, exact: true };
  const rids = await collectMatchIds(handle, filters, stats);
  const counted = { value: rids.length, exact: rids.length <= COUNT_CAP };
  let memo = countMemo.get(handle.db);
  if (!memo) countMemo.set(handle.db, (memo = new Map()));
  memo.set(key, counted);
  while (memo.size > COUNTED_LIMIT) memo.delete(memo.keys().next().value as string);
  return counted;
}

// ---- baseline ------------------------------------------------------------------------------

/**
 * The straightforward version, for the benchmark only: search through FTS5/pg_trgm alone (every
 * match fetched and sorted) and an exact COUNT(*).
 */
export async function baselinePage(handle: DatabaseHandle, filters: CatalogFilters, page: PageQuery): Promise<CatalogModelSummary[]> {
  const preds = buildPredicates(handle.dialect, filters);
  const search = preds.find((p) => p.kind === "search");
  const others = preds.filter((p) => p !== search).map((p) => p.where);
  let from: RawBuilder<unknown> = sql`models m`;
  let cte: RawBuilder<unknown> = sql``;
  if (search && filters.search) {
    if (handle.dialect === "sqlite" && [...filters.search].length < 3) {
      // FTS5 trigrams need three characters; shorter terms can only be scanned for.
      others.push(search!.where);
    } else if (handle.dialect === "sqlite") {
      // FTS first (CROSS JOIN): otherwise SQLite may walk a sort index and re-run the MATCH per row.
      from = sql`models_fts f cross join models m on m.rid = f.rowid`;
      others.push(sql`models_fts match ${ftsPhrase(filters.search)}`);
    } else {
      // Every trigram match first, then sort: what pg_trgm alone does for a search box.
      cte = sql`with d as materialized (select rid from models where lower(id) like ${likePattern(filters.search)}) `;
      from = sql`d join models m on m.rid = d.rid`;
    }
  }
  const rows = await runRows(
    handle,
    sql<ListRow>`${cte}select ${ROW_COLUMNS} from ${from} where ${andAll(others)}
      order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit ${page.limit} offset ${page.offset}`,
    page.sort,
  );
  return rows.models;
}

export async function baselineCount(handle: DatabaseHandle, filters: CatalogFilters): Promise<number> {
  const preds = buildPredicates(handle.dialect, filters);
  const r = await sql<{ n: number }>`select count(*) as n from models m where ${andAll(preds.map((p) => p.where))}`.execute(handle.db);
  return Number(r.rows[0]?.n ?? 0);
}

// ---- API extras ------------------------------------------------------------------------------

/** sha, file list, card metadata and config for a page of models (the API's full/cardData/config). */
export async function getListExtras(db: Kysely<Database>, ids: string[]): Promise<Map<string, ListExtras>> {
  const out = new Map<string, ListExtras>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom("models")
    .innerJoin("model_details", "model_details.rid", "models.rid")
    .select(["models.id", "model_details.sha", "model_details.siblings", "model_details.card_data", "model_details.config"])
    .where("models.id", "in", ids)
    .execute();
  for (const r of rows) {
    const siblings = JSON.parse(r.siblings) as Array<{ rfilename: string }>;
    out.set(r.id, {
      sha: r.sha,
      siblings: siblings.map((s) => ({ rfilename: s.rfilename })),
      cardData: r.card_data == null ? null : (JSON.parse(r.card_data) as Record<string, unknown>),
      config: r.config == null ? null : (JSON.parse(r.config) as Record<string, unknown>),
    });
  }
  return out;
}

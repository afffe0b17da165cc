import { type RawBuilder, sql } from "kysely";
import { COUNT_CAP, type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { DatabaseHandle, DialectName } from "#app/db/client.server.ts";
import type { CatalogPage } from "#app/catalog-search/answer-types.ts";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import type { CatalogSnapshot, SearchIds } from "#app/catalog-search/snapshot.server.ts";
import {
  type Cursor,
  type ListRow,
  afterWhere,
  type Pred,
  ROW_COLUMNS,
  SORT_COLUMN,
  andAll,
  buildPredicates,
  orderBy,
  rowToSummary,
} from "#app/catalog-search/sql.server.ts";

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

export function statCount(stats: CatalogFacets | null, pred: Pred): number | null {
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
  const r = await sql<{ "QUERY PLAN": unknown }>`explain (format json) ${q}`.execute(handle.reader);
  const plan = r.rows[0]?.["QUERY PLAN"];
  const parsed: unknown = typeof plan === "string" ? JSON.parse(plan) : plan;
  const rows = Array.isArray(parsed) ? (parsed[0] as { Plan?: { "Plan Rows"?: number } } | undefined)?.Plan?.["Plan Rows"] : undefined;
  return typeof rows === "number" ? rows : Number.POSITIVE_INFINITY;
}

interface Probed {
  n: number;
  rids?: number[];
}

/** Only small match sets are kept: they are the ones a trigram scan is paid for. */
const SEARCH_MEMO_MAX_IDS = COUNT_CAP + 1;

/** Whether the snapshot's statistics are current, so data-only answers may be shared by generation. */
const memoizable = (snap: CatalogSnapshot) => snap.stats !== null && !snap.stats.stale;

/**
 * The ids matching a search term (up to a cap), shared by the requests of one catalogue
 * generation. A trigram scan (GIN or FTS5) reads the posting list of every trigram in the term,
 * so even a rare term costs 10–120 ms; one /models request needs the matches for its probe, its
 * page and its count, and a typed-out search asks again for the same term.
 */
async function searchIds(snap: CatalogSnapshot, pred: Pred, cap: number): Promise<SearchIds> {
  const { handle } = snap;
  const read = async (): Promise<SearchIds> => {
    const r = await sql<{ rid: number }>`${pred.driver!} limit ${cap}`.execute(handle.reader);
    return { rids: r.rows.map((x) => Number(x.rid)), cap };
  };
  if (!memoizable(snap)) return read();
  const memo = snap.memos.search;
  const key = searchKey(snap, pred);
  const known = await knownSearchIds(snap, pred);
  if (known && (known.rids.length < known.cap || known.cap >= cap)) return { rids: known.rids.slice(0, cap), cap };
  const job = read();
  memo.set(key, job);
  void job.then(
    (x) => {
      if (x.rids.length > SEARCH_MEMO_MAX_IDS) memo.delete(key);
    },
    () => memo.delete(key),
  );
  return job;
}

const searchKey = (snap: CatalogSnapshot, pred: Pred) => `${snap.generation}\u0000${pred.value.toLowerCase()}`;

/** What an earlier request of this generation read for the term, if anything. */
async function knownSearchIds(snap: CatalogSnapshot, pred: Pred): Promise<SearchIds | null> {
  if (!memoizable(snap)) return null;
  const known = snap.memos.search.get(searchKey(snap, pred));
  return known ? known.catch(() => null) : null;
}

/**
 * Every match of a search when there are few enough to keep, so a page can be sorted
 * from them and a count taken without another trigram scan. Null when the term is too common.
 */
async function completeSearchIds(snap: CatalogSnapshot, driver: Estimate): Promise<number[] | null> {
  if (driver.rids) return driver.rids;
  if (driver.pred.kind !== "search" || !driver.pred.driver) return null;
  const found = await searchIds(snap, driver.pred, SEARCH_MEMO_MAX_IDS);
  return found.rids.length < found.cap ? found.rids : null;
}

/** A planner input that only changes with the data (an estimate, a walk's edge), per generation. */
export function memoized<T>(snap: CatalogSnapshot, key: string, compute: () => Promise<T>): Promise<T> {
  if (!memoizable(snap)) return compute();
  const memo = snap.memos.plan;
  const k = `${snap.generation}\u0000${key}`;
  const hit = memo.get(k) as Promise<T> | undefined;
  if (hit) return hit;
  const job = compute();
  memo.set(k, job);
  job.catch(() => memo.delete(k));
  return job;
}

async function probe(snap: CatalogSnapshot, pred: Pred, cap: number): Promise<Probed> {
  const { handle } = snap;
  if (!pred.driver) return { n: Number.POSITIVE_INFINITY };
  if (pred.kind === "search") {
    // A term an earlier request read the matches of: those are exact and free.
    const known = await knownSearchIds(snap, pred);
    if (known && known.rids.length < known.cap) return { n: known.rids.length, rids: known.rids };
    if (known && known.cap >= cap) return { n: known.rids.length };
    if (handle.dialect === "postgres") {
      const guess = await memoized(snap, `estimate\u0000${pred.value.toLowerCase()}`, () => plannerEstimate(handle, pred.driver!));
      // Trust the estimate for common terms; read the matches when it says the term is rare.
      if (guess >= PG_EXACT_BELOW) return { n: Math.max(cap, Math.round(guess)) };
    }
    // Up to the size kept, reading the capped ids costs what counting them does, and the page and
    // the count reuse them; beyond it, counting in SQL is cheaper than handing ids to JavaScript.
    const found = handle.dialect === "postgres" || cap <= SEARCH_MEMO_MAX_IDS ? await searchIds(snap, pred, cap) : null;
    if (!found) return { n: await cappedCount(snap, pred, cap) };
    return found.rids.length < cap ? { n: found.rids.length, rids: found.rids } : { n: found.rids.length };
  }
  return { n: await cappedCount(snap, pred, cap) };
}

/** Matches of one filter, counted up to `cap` from its own index; once per generation. */
function cappedCount(snap: CatalogSnapshot, pred: Pred, cap: number): Promise<number> {
  const { handle } = snap;
  return memoized(snap, `count\u0000${pred.kind}\u0000${pred.kind === "search" ? pred.value.toLowerCase() : pred.value}\u0000${cap}`, async () => {
    const r = await sql<{ n: number }>`select count(*) as n from (${pred.driver!} limit ${cap}) x`.execute(handle.reader);
    return Number(r.rows[0]?.n ?? 0);
  });
}

/**
 * A tag or provider the statistics do not list (only the most common tags are kept), counted
 * exactly from the facet index when it is built: a capped probe only says "common", and the
 * blind walk that follows read up to 150k index entries for a tag such as "bart" (220 ms).
 */
function indexCount(snap: CatalogSnapshot, pred: Pred): Promise<number | null> | null {
  const index = snap.index;
  if (!index || (pred.kind !== "tag" && pred.kind !== "provider")) return null;
  const filters = pred.kind === "tag" ? { ...emptyFilters(), tags: [pred.value] } : { ...emptyFilters(), provider: pred.value };
  return memoized(snap, `index-count\u0000${pred.kind}\u0000${pred.value}`, async () => index.countFilters(filters));
}

async function estimate(snap: CatalogSnapshot, preds: Pred[]): Promise<Estimate[]> {
  const known = await Promise.all(preds.map(async (pred) => ({ pred, n: statCount(snap.stats, pred) ?? (await indexCount(snap, pred)) })));
  // A probe only has to count far enough to tell whether it beats the best exact count.
  const bestExact = Math.min(...known.filter((k) => k.n !== null).map((k) => k.n!));
  const cap = Number.isFinite(bestExact) ? Math.min(MAX_PROBE, Math.max(PROBE_CAP, bestExact + 1)) : PROBE_CAP;
  return Promise.all(
    known.map(async ({ pred, n }): Promise<Estimate> => {
      if (n !== null) return { pred, n, exact: true };
      const counted = await probe(snap, pred, cap);
      return { pred, n: counted.n, exact: counted.n < cap, rids: counted.rids };
    }),
  );
}

async function catalogueSize(snap: CatalogSnapshot): Promise<number> {
  const { handle, stats } = snap;
  if (stats) return stats.total;
  // Before the first facet count: rowids are dense enough for an estimate.
  const r = await sql<{ n: number | null }>`select max(rid) as n from models`.execute(handle.reader);
  return Number(r.rows[0]?.n ?? 0);
}

function indexName(sort: SortKey, byTask: boolean, dialect: DialectName): RawBuilder<unknown> {
  if (dialect !== "sqlite") return sql``;
  const col = SORT_COLUMN[sort];
  return sql.raw(` indexed by ${byTask ? `models_task_${col}` : `models_${col}`}`);
}

export interface Rows {
  models: CatalogModelSummary[];
  last: Cursor | null;
}

async function runRows(handle: DatabaseHandle, q: RawBuilder<ListRow>, sort: SortKey): Promise<Rows> {
  const r = await q.execute(handle.reader);
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
async function budgetBound(snap: CatalogSnapshot, page: PageQuery, task: string | null, budget: number): Promise<RawBuilder<unknown> | null> {
  const { handle } = snap;
  const col = SORT_COLUMN[page.sort];
  const c = sql.raw(`m.${col}`);
  const taskWhere = task === null ? sql`` : sql`where m.pipeline_tag = ${task}`;
  // Where a walk of `budget` rows ends depends on the data alone: once per generation.
  const edge = await memoized(snap, `edge\u0000${page.sort}\u0000${page.ascending}\u0000${task ?? ""}\u0000${budget}`, async () => {
    const r = await sql<{ v: string | number | null; rid: number }>`
      select m.${sql.raw(col)} as v, m.rid from models m${indexName(page.sort, task !== null, handle.dialect)} ${taskWhere}
      order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit 1 offset ${budget - 1}`.execute(handle.reader);
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

async function walk(snap: CatalogSnapshot, preds: Pred[], page: PageQuery, budget: number | null): Promise<Rows & { complete: boolean }> {
  const { handle } = snap;
  const taskPred = preds.find((p) => p.kind === "task") ?? null;
  const task = taskPred?.value ?? null;
  const bound = budget === null ? null : await budgetBound(snap, page, task, budget);
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
      handle.reader,
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
export async function rowsByRid(handle: DatabaseHandle, rids: number[], sort: SortKey): Promise<Rows> {
  if (!rids.length) return { models: [], last: null };
  const inList = handle.dialect === "sqlite" ? sql`m.rid in (select value from json_each(${JSON.stringify(rids)}))` : sql`m.rid = any(${rids}::int[])`;
  const r = await sql<ListRow>`select ${ROW_COLUMNS} from models m where ${inList}`.execute(handle.reader);
  const byRid = new Map(r.rows.map((x) => [Number(x.rid), x]));
  const ordered = rids.map((id) => byRid.get(id)).filter((x): x is ListRow => x !== undefined);
  const last = ordered.at(-1);
  const col = SORT_COLUMN[sort];
  return {
    models: ordered.map(rowToSummary),
    last: last ? { v: (last as unknown as Record<string, string | number | null>)[col] ?? null, rid: Number(last.rid) } : null,
  };
}

async function collect(snap: CatalogSnapshot, preds: Pred[], found: Estimate, page: PageQuery): Promise<Rows> {
  const { handle } = snap;
  const rids = await completeSearchIds(snap, found);
  const driver = rids ? { ...found, rids } : found;
  const rest = preds.filter((p) => p !== driver.pred).map((p) => p.where);
  // Sort the matches by id and key alone, then read whole rows for the one page.
  const r = await sql<{ rid: number }>`${withDriver(handle, driver)}select m.rid from ${driverJoin(handle, driver)}
    where ${andAll(rest)} order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit ${page.limit} offset ${page.offset}`.execute(handle.reader);
  return rowsByRid(
    handle,
    r.rows.map((x) => Number(x.rid)),
    page.sort,
  );
}

/** One sorted page of exactly these rows (a few thousand at most), sorted by the database off the event loop. */
export async function pageOfRids(handle: DatabaseHandle, rids: number[], page: PageQuery): Promise<Rows> {
  if (!rids.length) return { models: [], last: null };
  const driver: Estimate = { pred: { kind: "params", value: "", where: sql`1 = 1`, driver: null }, n: rids.length, exact: true, rids };
  const r = await sql<{ rid: number }>`${withDriver(handle, driver)}select m.rid from ${driverJoin(handle, driver)}
    order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit ${page.limit} offset ${page.offset}`.execute(handle.reader);
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
export async function listCatalogPage(snap: CatalogSnapshot, filters: CatalogFilters, page: PageQuery): Promise<CatalogPage> {
  const found = await planPage(snap, filters, page);
  return { models: found.models, plan: found.plan, next: found.models.length === page.limit ? found.last : null };
}

async function planPage(snap: CatalogSnapshot, filters: CatalogFilters, page: PageQuery): Promise<Rows & { plan: string }> {
  const preds = buildPredicates(snap.handle.dialect, filters);
  const cursor: Pred | null = page.after
    ? { kind: "params", value: "", where: afterWhere(page.sort, page.ascending, page.after), driver: null }
    : null;
  const withCursor = cursor ? [...preds, cursor] : preds;
  if (preds.length === 0) return { ...(await walk(snap, withCursor, page, null)), plan: "walk" };
  const [ests, total] = await Promise.all([estimate(snap, preds), catalogueSize(snap)]);
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
    const w = await walk(snap, withCursor, page, driver && !cursor && budget < walkRows ? budget : null);
    if (w.complete) return { ...w, plan: `walk(${taskEst ? "task index" : "sort index"})` };
    if (driver) return { ...(await collect(snap, withCursor, driver, page)), plan: `walk→collect(${driver.pred.kind})` };
  }
  if (driver) return { ...(await collect(snap, withCursor, driver, page)), plan: `collect(${driver.pred.kind})` };
  return { ...(await walk(snap, withCursor, page, null)), plan: "walk(full)" };
}

/** Up to `cap` matching row ids (cap + 1 tells "more than cap"), driven by the most selective filter. */
export async function collectMatchIds(snap: CatalogSnapshot, filters: CatalogFilters, cap = COUNT_CAP): Promise<number[]> {
  const { handle } = snap;
  const preds = buildPredicates(handle.dialect, filters);
  const limit = cap + 1;
  if (preds.length === 0) {
    const r = await sql<{ rid: number }>`select m.rid from models m limit ${limit}`.execute(handle.reader);
    return r.rows.map((x) => Number(x.rid));
  }
  const ests = await estimate(snap, preds);
  if (ests.some((e) => e.exact && e.n === 0)) return [];
  const picked = pickDriver(ests);
  let driver = picked;
  if (picked && picked.pred.kind === "search" && !picked.rids && picked.pred.driver) {
    // Read (and keep) the capped matches once: later counts and pages of the term reuse them.
    const found = await searchIds(snap, picked.pred, Math.max(limit, SEARCH_MEMO_MAX_IDS));
    if (found.rids.length < found.cap) driver = { ...picked, rids: found.rids };
    else if (preds.length === 1) return found.rids.slice(0, limit);
  }
  if (!driver) {
    const r = await sql<{ rid: number }>`select m.rid from models m where ${andAll(preds.map((p) => p.where))} limit ${limit}`.execute(handle.reader);
    return r.rows.map((x) => Number(x.rid));
  }
  const rest = preds.filter((p) => p !== driver.pred).map((p) => p.where);
  if (rest.length === 0) {
    // One filter: its own index has the answer, no row needs reading.
    const r = await sql<{ rid: number }>`select d.rid from (${driverSource(handle, driver)}) d limit ${limit}`.execute(handle.reader);
    return r.rows.map((x) => Number(x.rid));
  }
  if (handle.dialect === "postgres" && !driver.rids) {
    // Unordered and capped, PostgreSQL's own plan (a BitmapAnd of the filters' indexes) beats a
    // driver pinned first: the materialized CTE read every row of the driver before the first
    // match (fill-mask + "bert": 650 ms against 75 ms).
    const r = await sql<{ rid: number }>`select m.rid from models m where ${andAll(preds.map((p) => p.where))} limit ${limit}`.execute(handle.reader);
    return r.rows.map((x) => Number(x.rid));
  }
  const r = await sql<{ rid: number }>`${withDriver(handle, driver)}select m.rid from ${driverJoin(handle, driver)}
    where ${andAll(rest)} limit ${limit}`.execute(handle.reader);
  return r.rows.map((x) => Number(x.rid));
}


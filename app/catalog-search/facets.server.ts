import { sql } from "kysely";
import { isLanguageCode } from "#app/catalog/languages.ts";
import { PARAM_BUCKETS } from "#app/catalog-search/listing-params.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { type FacetIndex, type FacetTally, emptyTally } from "#app/catalog-search/index/facet-index.server.ts";
import { FacetIndexBuilder, type FacetSourceRow, bareTags, isIndexableSpan } from "#app/catalog-search/index/facet-index-builder.server.ts";
import { IdTextBuilder } from "#app/catalog-search/index/id-search.server.ts";
import { readSortOrders } from "#app/catalog-search/index/sort-order.server.ts";
import { readCatalogueCoverage } from "#app/catalog-search/sql/sql.server.ts";
import type { CatalogueCoverage } from "#app/catalog-search/answer-types.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { createSliceSizer, yieldToEventLoop } from "#app/utils/time-slice.server.ts";

/**
 * Facet counts (task, library, licence, language, other tags, provider, size): their shape, from an
 * index tally or over a set of rows read from the database, and the read of every row into a new
 * facet index (docs/decisions/0010-facet-index.md).
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

/** What facet counting reads: the catalogue, its generation and that generation's facet index, if built. */
export interface FacetSource {
  handle: DatabaseHandle;
  generation: number;
  index: FacetIndex | null;
}

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

/**
 * A library filters as its tag (CatalogFilters.tags), so it counts as its tag where the tally has
 * it: a full count (the database's) holds every tag; the index's tally has done this already.
 */
function libraryCounts(c: Counter): Map<string, number> {
  const m = new Map(c.libraries);
  for (const [library, n] of m) m.set(library, Math.max(n, c.tags.get(library) ?? 0));
  return m;
}

/** Languages and free tags come from model_tags; prefixed tags (license:, dataset:, arxiv:, …) are other facets or too many to list. */
export function facetsFromTally(c: Counter, exact: boolean, generation: number): CatalogFacets {
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
    libraries: sorted(libraryCounts(c)),
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


/**
 * Counts in JavaScript over the narrow listing columns. A GROUP BY per facet (worst: tags, about
 * fifteen per model) sorts in a temporary B-tree and measured 10–50x slower than one pass here.
 * Tags and providers come from the row's own JSON lists, which the importer keeps in step with
 * model_tags and model_providers: model_tags' bare tags are the model's own plus its card's
 * languages (model_details.languages).
 */
async function aggregate(handle: DatabaseHandle, rids: number[], c: Counter): Promise<void> {
  const where =
    handle.dialect === "sqlite" ? sql`m.rid in (select value from json_each(${JSON.stringify(rids)}))` : sql`m.rid = any(${rids}::int[])`;
  const rows = await sql<Omit<FacetSourceRow, "rid">>`select m.pipeline_tag, m.library_name, m.license, m.params, m.tags, m.providers, d.languages
    from models m left join model_details d on d.rid = m.rid where ${where}`.execute(handle.reader);
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
}

/**
 * How long a slice held the event loop: with SQLite read on the event loop the whole slice (its
 * driver reads synchronously); with reader threads (ADR 0023) or PostgreSQL only the work on the
 * rows after they arrived, since the wait leaves the loop free. Sized by wall time, PostgreSQL's
 * slices shrank to round trips of a few rows (warm-up at 760k rows took 8.5 s instead of 5.8 s),
 * and the reader threads' to some 4,800 messages, each a thread wake-up that on two cores took
 * the CPU from the requests.
 */
function heldMs(handle: DatabaseHandle, start: number, rowsArrived: number): number {
  const now = performance.now();
  return readsOnLoop(handle) ? now - start : now - rowsArrived;
}

/** Whether a read holds the event loop: SQLite without reader threads. */
function readsOnLoop(handle: DatabaseHandle): boolean {
  return handle.dialect === "sqlite" && handle.reader === handle.db;
}

/** Counts over an explicit set of rows (at most COUNT_CAP), exact for those rows; `exact` says whether they are every match. */
export async function facetsForRids(source: FacetSource, rids: number[], exact: boolean): Promise<CatalogFacets> {
  if (source.index) return facetsFromTally(source.index.tallyRids(rids, MAX_TAG_VALUES), exact, source.generation);
  const c = newCounter();
  if (rids.length) await aggregate(source.handle, rids, c);
  return facetsFromTally(c, exact, source.generation);
}

/**
 * The lowest and highest row id (lo > hi when the catalogue is empty). Two subqueries, not
 * `select min(rid), max(rid)`: SQLite answers a lone min() or max() from the key, but both in one
 * select scan the table, some 40 ms at 760k rows in one synchronous call before every index build.
 */
async function ridBounds(handle: DatabaseHandle): Promise<{ lo: number; hi: number }> {
  const b = await sql<{ lo: number | null; hi: number | null }>`select (select min(rid) from models) as lo, (select max(rid) from models) as hi`.execute(handle.reader);
  return { lo: Number(b.rows[0]?.lo ?? 0), hi: Number(b.rows[0]?.hi ?? -1) };
}

/**
 * Reads every row's facet columns, in rowid slices with the event loop free between them, into a
 * new index for `generation` (docs/decisions/0010-facet-index.md). Null when the row ids are too
 * sparse to index: the database then counts.
 */
export async function readFacetIndex(handle: DatabaseHandle, generation: number): Promise<FacetIndex | null> {
  const builder = new FacetIndexBuilder();
  // Without the listing part (MODELYARD_LISTING_INDEX=0) the index answers facets only, and the
  // plain queries answer pages (sql-listing.server.ts).
  const ids = getEnv().MODELYARD_LISTING_INDEX ? new IdTextBuilder() : null;
  const { lo, hi } = await ridBounds(handle);
  // Only a span past the floor of isIndexableSpan needs the row count (a cold count(*) at 760k
  // rows holds SQLite for some 7 ms).
  const countRows = async () => Number((await sql<{ n: number }>`select count(*) as n from models`.execute(handle.reader)).rows[0]?.n ?? 0);
  if (!isIndexableSpan(hi - lo + 1, 0) && !isIndexableSpan(hi - lo + 1, await countRows())) return null;
  const sizer = sliceSizer();
  // In row-id order, as the id text keeps its rows (IdTextBuilder.add).
  const read = (start: number, n: number) =>
    sql<FacetSourceRow & { id: string }>`select m.rid, m.id, m.pipeline_tag, m.library_name, m.license, m.params, m.tags, m.providers, d.languages
      from models m left join model_details d on d.rid = m.rid where m.rid >= ${start} and m.rid < ${start + n} order by m.rid`.execute(handle.reader);
  // When the reads are off the event loop (PostgreSQL, SQLite's reader threads), the next slice is
  // read while this one is indexed: the build, and so the plain queries' window after each import, is
  // about the indexing alone rather than indexing plus a round trip per slice.
  const prefetch = !readsOnLoop(handle);
  let n = sizer.size;
  let pending: ReturnType<typeof read> | null = read(lo, n);
  for (let start = lo; pending; ) {
    const t0 = performance.now();
    const rows = await pending;
    const t1 = performance.now();
    const next = start + n;
    const nextSize = sizer.size;
    pending = prefetch && next <= hi ? read(next, nextSize) : null;
    // Awaited on the next pass; if indexing this slice throws first, its failure is not unhandled.
    pending?.catch(() => undefined);
    for (const r of rows.rows) {
      builder.add(r);
      ids?.add(Number(r.rid), r.id);
    }
    sizer.record(heldMs(handle, t0, t1), n);
    start = next;
    n = prefetch ? nextSize : sizer.size;
    await yieldToEventLoop();
    if (!prefetch && start <= hi) pending = read(start, n);
  }
  const index = await builder.finishInSlices(generation, yieldToEventLoop);
  if (!index || !ids) return index;
  const orders = await readSortOrders(handle, yieldToEventLoop, (order) => index.sortOrder(order));
  const coverage: Record<SortKey, CatalogueCoverage> = {
    trending: await readCatalogueCoverage(handle, "trending"),
    downloads: await readCatalogueCoverage(handle, "downloads"),
    likes: await readCatalogueCoverage(handle, "likes"),
    created: await readCatalogueCoverage(handle, "created"),
    updated: await readCatalogueCoverage(handle, "updated"),
  };
  return index.withListing({ ids: ids.finish(), orders, coverage });
}

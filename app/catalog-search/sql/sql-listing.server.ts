import { type RawBuilder, sql } from "kysely";
import type { CatalogCount, CatalogPage, Counted, PageQuery } from "#app/catalog-search/answer-types.ts";
import { type FacetSource, MAX_TAG_VALUES, facetsForRids, facetsFromTally } from "#app/catalog-search/facets.server.ts";
import { COUNT_CAP, type CatalogFilters } from "#app/catalog-search/listing-params.ts";
import {
  type Cursor,
  type ListRow,
  ROW_COLUMNS,
  SORT_COLUMN,
  afterWhere,
  andAll,
  buildPredicates,
  ftsPhrase,
  orderBy,
  rowToSummary,
} from "#app/catalog-search/sql/sql.server.ts";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { DatabaseHandle, DialectName } from "#app/db/client.server.ts";
import { yieldToEventLoop } from "#app/utils/time-slice.server.ts";

/**
 * The listing in plain SQL, for while the in-memory index cannot answer (not built yet for this
 * generation, or MODELYARD_LISTING_INDEX=0): one query per view, the filters' WHERE with a search
 * through its text index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL), ORDER BY the sort, and
 * LIMIT/OFFSET or a keyset cursor. Counts stop at COUNT_CAP and say so (`exact: false`, shown as
 * "10,000+"), and so do facets counted over those first matches. The equivalence tests hold the
 * in-memory listing to these queries (search.server.test.ts).
 */

/** The FROM and WHERE of the rows matching `filters`, plus `extra` conditions. */
function matching(dialect: DialectName, filters: CatalogFilters, extra: Array<RawBuilder<unknown>> = []): { from: RawBuilder<unknown>; where: RawBuilder<unknown> } {
  const preds = buildPredicates(dialect, filters);
  const where = [...preds.map((p) => p.where), ...extra];
  // SQLite would walk a sort index and test LIKE on every row; FTS5's trigrams find a word's rows
  // first (CROSS JOIN fixes that order), and LIKE still decides, so case folding is LIKE's. Its
  // trigrams need three characters. PostgreSQL's own planner takes pg_trgm for LIKE where it pays.
  const word = preds
    .filter((p) => p.kind === "search" && [...p.value].length >= 3)
    .sort((a, b) => b.value.length - a.value.length)[0];
  if (dialect !== "sqlite" || !word) return { from: sql`models m`, where: andAll(where) };
  return { from: sql`models_fts f cross join models m on m.rid = f.rowid`, where: andAll([sql`models_fts match ${ftsPhrase(word.value)}`, ...where]) };
}

export interface Rows {
  models: CatalogModelSummary[];
  /** The last row's place in the sort, where the next page resumes. */
  last: Cursor | null;
}

function toRows(rows: ListRow[], sort: SortKey): Rows {
  const last = rows.at(-1);
  const col = SORT_COLUMN[sort];
  return {
    models: rows.map(rowToSummary),
    last: last ? { v: (last as unknown as Record<string, string | number | null>)[col] ?? null, rid: Number(last.rid) } : null,
  };
}

export const toPage = (rows: Rows, limit: number, plan: string): CatalogPage => ({ models: rows.models, plan, next: rows.models.length === limit ? rows.last : null });

/** One sorted page of the models matching `filters`. */
export async function sqlPage(handle: DatabaseHandle, filters: CatalogFilters, query: PageQuery): Promise<CatalogPage> {
  const { from, where } = matching(handle.dialect, filters, query.after ? [afterWhere(query.sort, query.ascending, query.after)] : []);
  const r = await sql<ListRow>`select ${ROW_COLUMNS} from ${from} where ${where}
    order by ${orderBy(handle.dialect, query.sort, query.ascending)} limit ${query.limit} offset ${query.offset}`.execute(handle.reader);
  return toPage(toRows(r.rows, query.sort), query.limit, "sql");
}

/** Up to `cap` ids of matching rows, in no particular order. */
async function matchIds(handle: DatabaseHandle, filters: CatalogFilters, cap: number): Promise<number[]> {
  const { from, where } = matching(handle.dialect, filters);
  const r = await sql<{ rid: number }>`select m.rid from ${from} where ${where} limit ${cap}`.execute(handle.reader);
  return r.rows.map((x) => Number(x.rid));
}

const capped = (n: number): CatalogCount => ({ value: n, exact: n <= COUNT_CAP });

/**
 * How many models match, exactly up to COUNT_CAP (COUNT_CAP + 1 is "more"). The facet index, where
 * built without its listing part, counts exactly when its profiles hold every filter
 * (`profilesHold`, memory-listing.server.ts).
 */
export async function sqlCount(source: FacetSource, filters: CatalogFilters, profilesHold: boolean): Promise<CatalogCount> {
  const exact = profilesHold ? (source.index?.countFilters(filters) ?? null) : null;
  if (exact !== null) return { value: exact, exact: true };
  const { from, where } = matching(source.handle.dialect, filters);
  const r = await sql<{ n: number | string }>`select count(*) as n from (select 1 from ${from} where ${where} limit ${COUNT_CAP + 1}) x`.execute(source.handle.reader);
  return capped(Number(r.rows[0]?.n ?? 0));
}

/**
 * The count and the facets: exact from the facet index's profiles when it holds every filter, else
 * over the first COUNT_CAP + 1 matches, exact when that is all of them and lower bounds otherwise.
 */
export async function sqlCounted(source: FacetSource, filters: CatalogFilters, profilesHold: boolean): Promise<Counted> {
  const tally = source.index && profilesHold ? await source.index.tallyFiltersInSlices(filters, yieldToEventLoop, MAX_TAG_VALUES) : null;
  if (tally) return { count: { value: tally.total, exact: true }, facets: facetsFromTally(tally, true, source.generation) };
  const rids = await matchIds(source.handle, filters, COUNT_CAP + 1);
  const count = capped(rids.length);
  return { count, facets: await facetsForRids(source, count.exact ? rids : rids.slice(0, COUNT_CAP), count.exact) };
}

/** Whole rows for ids, in the given order. */
export async function rowsByRid(handle: DatabaseHandle, rids: number[], sort: SortKey): Promise<Rows> {
  if (!rids.length) return { models: [], last: null };
  const r = await sql<ListRow>`select ${ROW_COLUMNS} from models m where ${ridIn(handle.dialect, rids)}`.execute(handle.reader);
  const byRid = new Map(r.rows.map((x) => [Number(x.rid), x]));
  return toRows(
    rids.map((id) => byRid.get(id)).filter((x): x is ListRow => x !== undefined),
    sort,
  );
}

function ridIn(dialect: DialectName, rids: number[]): RawBuilder<unknown> {
  return dialect === "sqlite" ? sql`m.rid in (select value from json_each(${JSON.stringify(rids)}))` : sql`m.rid = any(${rids}::int[])`;
}

/**
 * One sorted page of exactly these rows (a few thousand at most), sorted by the database off the
 * event loop. SQLite reads the sort keys from the narrow index rather than whole rows.
 */
export async function pageOfRids(handle: DatabaseHandle, rids: number[], query: PageQuery): Promise<Rows> {
  if (!rids.length) return { models: [], last: null };
  const after = query.after ? afterWhere(query.sort, query.ascending, query.after) : sql`1 = 1`;
  const order = orderBy(handle.dialect, query.sort, query.ascending);
  const r =
    handle.dialect === "sqlite"
      ? await sql<{ rid: number }>`select m.rid from (select value as rid from json_each(${JSON.stringify(rids)})) d
          cross join models m indexed by models_narrow on m.rid = d.rid where ${after} order by ${order} limit ${query.limit} offset ${query.offset}`.execute(handle.reader)
      : await sql<{ rid: number }>`with d as materialized (select unnest(${rids}::int[]) as rid)
          select m.rid from d join models m on m.rid = d.rid where ${after} order by ${order} limit ${query.limit} offset ${query.offset}`.execute(handle.reader);
  return rowsByRid(
    handle,
    r.rows.map((x) => Number(x.rid)),
    query.sort,
  );
}

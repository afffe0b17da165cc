import { type RawBuilder, sql } from "kysely";
import { type CatalogFilters, filtersKey, isUnfiltered } from "#app/catalog-search/listing-params.ts";
import { type CatalogSnapshot, remember } from "#app/catalog-search/snapshot.server.ts";
import { andAll, buildPredicates } from "#app/catalog-search/sql/sql.server.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";

/**
 * What a sort can rank among a view's matches. Trending scores come from the catalogue's snapshot
 * and update dates only from the rows that carry one; every other match follows them in the
 * sort's tie order (row id: the order the catalogue received them). On the bundled catalogue that
 * is 225 models without a trending score and all but 184 without an update date, so the listing
 * says so rather than let its order change silently a few pages in.
 */
export interface SortCoverage {
  sort: CoveredSort;
  /** Matches the sort cannot rank: no trending score, or no update date. */
  unranked: number;
  /** The snapshot dates of the catalogue's trending scores (the first and the last), or null when no row carries one. */
  asOf: { from: string; to: string } | null;
}

export type CoveredSort = Extract<SortKey, "trending" | "updated">;

const isCovered = (sort: SortKey): sort is CoveredSort => sort === "trending" || sort === "updated";

/** The rows a sort cannot rank: they sort last (orderBy in sql.server.ts), tied, by row id. */
const UNRANKED: Record<CoveredSort, RawBuilder<unknown>> = {
  trending: sql`m.trending_score <= 0`,
  updated: sql`m.last_modified is null`,
};

const RANKED: Record<CoveredSort, RawBuilder<unknown>> = {
  trending: sql`m.trending_score > 0`,
  updated: sql`m.last_modified is not null`,
};

/**
 * Rows a filtered count may read (it walks the smaller side of the sort's index, checking the
 * filters on each): past this on both sides, the view gets no note rather than a slow request.
 */
export const COVERAGE_SCAN_LIMIT = 100_000;

interface CatalogueCoverage {
  rows: number;
  unranked: number;
  asOf: SortCoverage["asOf"];
}

/**
 * The coverage of `sort` among the matches of `filters` (`matches` of them, when known exactly), or
 * null when the sort ranks every row or counting would cost more than the note is worth.
 */
export async function sortCoverage(snap: CatalogSnapshot, filters: CatalogFilters, sort: SortKey, matches: number | null): Promise<SortCoverage | null> {
  if (!isCovered(sort)) return null;
  const whole = await remember(snap, `sort-coverage\u0000${sort}`, () => catalogueCoverage(snap, sort), () => 128);
  if (isUnfiltered(filters)) return { sort, unranked: whole.unranked, asOf: whole.asOf };
  if (whole.unranked === 0) return { sort, unranked: 0, asOf: whole.asOf };
  const ranked = whole.rows - whole.unranked;
  // Counted on the side with fewer rows; the other side is the matches less that count.
  const side = whole.unranked <= ranked || matches === null ? "unranked" : "ranked";
  if ((side === "unranked" ? whole.unranked : ranked) > COVERAGE_SCAN_LIMIT) return null;
  const counted = await remember(
    snap,
    `sort-coverage\u0000${sort}\u0000${side}\u0000${filtersKey(filters)}`,
    () => countWhere(snap, filters, side === "unranked" ? UNRANKED[sort] : RANKED[sort]),
    () => 32,
  );
  const unranked = side === "unranked" ? counted : Math.max(0, (matches ?? 0) - counted);
  return { sort, unranked, asOf: whole.asOf };
}

async function catalogueCoverage(snap: CatalogSnapshot, sort: CoveredSort): Promise<CatalogueCoverage> {
  const { reader } = snap.handle;
  const counts = await sql<{ rows: number | string; unranked: number | string }>`select (select count(*) from models) as rows, (select count(*) from models m where ${UNRANKED[sort]}) as unranked`.execute(reader);
  const rows = Number(counts.rows[0]?.rows ?? 0);
  const unranked = Number(counts.rows[0]?.unranked ?? 0);
  if (sort !== "trending") return { rows, unranked, asOf: null };
  // The dates of the scores that rank: a score from live counts (no snapshot date) among them
  // makes the ranking no snapshot's, and then none is named.
  const dates = await sql<{ first: string | null; last: string | null; live: number | string }>`select min(m.stats_as_of) as first, max(m.stats_as_of) as last,
    count(*) - count(m.stats_as_of) as live from models m where ${RANKED.trending}`.execute(reader);
  const first = dates.rows[0]?.first ?? null;
  const last = dates.rows[0]?.last ?? null;
  const live = Number(dates.rows[0]?.live ?? 0);
  return { rows, unranked, asOf: first !== null && last !== null && live === 0 ? { from: first, to: last } : null };
}

async function countWhere(snap: CatalogSnapshot, filters: CatalogFilters, side: RawBuilder<unknown>): Promise<number> {
  const preds = buildPredicates(snap.handle.dialect, filters);
  const where = andAll([side, ...preds.map((p) => p.where)]);
  const r = await sql<{ n: number | string }>`select count(*) as n from models m where ${where}`.execute(snap.handle.reader);
  return Number(r.rows[0]?.n ?? 0);
}

import { type RawBuilder, sql } from "kysely";
import type { CatalogueCoverage } from "#app/catalog-search/answer-types.ts";
import { type CatalogFilters, filtersKey, isUnfiltered } from "#app/catalog-search/listing-params.ts";
import { type CatalogSnapshot, remember } from "#app/catalog-search/snapshot.server.ts";
import { RANKED, UNRANKED, andAll, buildPredicates, readCatalogueCoverage } from "#app/catalog-search/sql/sql.server.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";

/**
 * What a sort can rank among a view's matches. Trending scores come from the catalogue's snapshot,
 * update and creation dates only from the rows that carry one, and counts only from rows imported
 * with them; every other match follows them in the sort's tie order (row id: the order the
 * catalogue received them), or for counts sorts as a zero. On the bundled catalogue that is 225
 * models without a trending score, a creation date or counts (the provider-mapped models added after
 * the snapshot) and all but 184 without an update date, so the listing says so rather than let its
 * order change silently a few pages in.
 */
export interface SortCoverage {
  sort: SortKey;
  /** Matches the sort cannot rank: no trending score, no update or creation date, or no counts. */
  unranked: number;
  /** The snapshot dates of the catalogue's trending scores (the first and the last), or null when no row carries one. */
  asOf: CatalogueCoverage["asOf"];
}

/**
 * Rows a filtered count may read (it walks the smaller side of the sort's index, checking the
 * filters on each): past this on both sides, the view gets no note rather than a slow request.
 */
export const COVERAGE_SCAN_LIMIT = 100_000;

/**
 * The coverage of `sort` among the matches of `filters` (`matches` of them, when known exactly), or
 * null when counting would cost more than the note is worth.
 */
export async function sortCoverage(snap: CatalogSnapshot, filters: CatalogFilters, sort: SortKey, matches: number | null): Promise<SortCoverage | null> {
  // Saved with the listing index, which reads it off the event loop: at 3M rows the query takes
  // over a second (the trending scores' dates are read row by row).
  const whole = snap.index?.listing?.coverage[sort] ?? (await remember(snap, `sort-coverage\u0000${sort}`, () => readCatalogueCoverage(snap.handle, sort), () => 128));
  if (isUnfiltered(filters)) return { sort, unranked: whole.unranked, asOf: whole.asOf };
  if (whole.unranked === 0) return { sort, unranked: 0, asOf: whole.asOf };
  const ranked = whole.rows - whole.unranked;
  // Counted on the side with fewer rows; the other side is the matches less that count.
  const rankedSide = (RANKED as Partial<Record<SortKey, RawBuilder<unknown>>>)[sort];
  const side = whole.unranked <= ranked || matches === null || !rankedSide ? "unranked" : "ranked";
  if ((side === "unranked" ? whole.unranked : ranked) > COVERAGE_SCAN_LIMIT) return null;
  const counted = await remember(
    snap,
    `sort-coverage\u0000${sort}\u0000${side}\u0000${filtersKey(filters)}`,
    () => countWhere(snap, filters, side === "ranked" && rankedSide ? rankedSide : UNRANKED[sort]),
    () => 32,
  );
  const unranked = side === "unranked" ? counted : Math.max(0, (matches ?? 0) - counted);
  return { sort, unranked, asOf: whole.asOf };
}

async function countWhere(snap: CatalogSnapshot, filters: CatalogFilters, side: RawBuilder<unknown>): Promise<number> {
  const preds = buildPredicates(snap.handle.dialect, filters);
  const where = andAll([side, ...preds.map((p) => p.where)]);
  const r = await sql<{ n: number | string }>`select count(*) as n from models m where ${where}`.execute(snap.handle.reader);
  return Number(r.rows[0]?.n ?? 0);
}

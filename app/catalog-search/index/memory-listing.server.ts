import { sql } from "kysely";
import type { CatalogCount, CatalogPage, Counted, PageQuery } from "#app/catalog-search/answer-types.ts";
import { type FacetIndex, type ListingData, type RowMatch, type SortOrder, bucketsCovering } from "#app/catalog-search/index/facet-index.server.ts";
import { MAX_TAG_VALUES, facetsFromTally } from "#app/catalog-search/facets.server.ts";
import { type CatalogFilters, emptyFilters, filtersKey, isUnfiltered, searchWords } from "#app/catalog-search/listing-params.ts";
import { type CatalogSnapshot, remember } from "#app/catalog-search/snapshot.server.ts";
import { pageOfRids, rowsByRid, sqlPage, toPage } from "#app/catalog-search/sql/sql-listing.server.ts";
import { type Pred, SORT_COLUMN, buildPredicates } from "#app/catalog-search/sql/sql.server.ts";
import { yieldToEventLoop } from "#app/utils/time-slice.server.ts";

/**
 * Listing answers from the in-memory index of the snapshot's generation
 * (docs/decisions/0027-listing-answered-from-memory.md), for every filter set: the matching rows
 * are a mask over facet profiles (the filters the profiles hold) and candidate rows for the rest,
 * the id text's for a search and one indexed SQL lookup per other filter (`Pred.rows`: an author,
 * a tag with a prefix, a size range ending inside a bucket). A page is a walk of the sort's order
 * over them, resumed at a keyset cursor's row, and only its rows are read from the database.
 * Counts and facets are exact tallies.
 */

/** An index able to answer listings: built with its listing part (not MODELYARD_LISTING_INDEX=0). */
export type ListingIndex = FacetIndex & { listing: ListingData };

export const answersListings = (index: FacetIndex | null): index is ListingIndex => index?.listing != null;

/**
 * Matching rows up to which a page is sorted by the database rather than walked in memory: a walk
 * visits the whole order (760k entries) to find a few rows, where sorting them takes a millisecond.
 */
const SORT_IN_DATABASE_BELOW = 3_000;

/** A sorted page of `filters`. */
export async function pageFromMemory(snap: CatalogSnapshot, index: ListingIndex, filters: CatalogFilters, query: PageQuery): Promise<CatalogPage> {
  const match = await rowMatch(snap, index, filters);
  const few = match.candidates;
  if (few && few.length <= SORT_IN_DATABASE_BELOW) return toPage(await pageOfRids(snap.handle, Array.from(few), query), query.limit, "memory");
  const order = index.listing.orders[query.sort];
  let start = 0;
  if (query.after) {
    const at = await cursorPosition(snap, index, order, query);
    // The cursor's row is gone or has moved since its page was sent (an import in between): the
    // plain query resumes after its old sort value instead.
    if (at === null) return sqlPage(snap.handle, filters, query);
    start = at + 1;
  }
  const rids = await index.page(order, query.ascending, match, query.offset, query.limit, yieldToEventLoop, start);
  return toPage(await rowsByRid(snap.handle, rids, query.sort), query.limit, "memory");
}

/**
 * Where a keyset cursor's row stands in the sort (counted from the first row shown in this
 * direction), when its sort value is still the cursor's: then the rows after it in the order are
 * exactly the rows after the cursor. Null otherwise.
 */
async function cursorPosition(snap: CatalogSnapshot, index: ListingIndex, order: SortOrder, query: PageQuery): Promise<number | null> {
  const after = query.after!;
  const r = await sql<{ v: string | number | null }>`select ${sql.ref(SORT_COLUMN[query.sort])} as v from models where rid = ${after.rid}`.execute(snap.handle.reader);
  const row = r.rows[0];
  if (!row || (row.v === null) !== (after.v === null) || String(row.v) !== String(after.v)) return null;
  return index.positionOf(order, after.rid, query.ascending);
}

/** Exact count and facets of a filter set. */
export async function countedFromMemory(snap: CatalogSnapshot, index: ListingIndex, filters: CatalogFilters): Promise<Counted> {
  const match = await rowMatch(snap, index, filters);
  const tally = match.candidates
    ? index.tallyRids(match.candidates, MAX_TAG_VALUES)
    : await index.tallyFiltersInSlices(split(filters).profile, yieldToEventLoop, MAX_TAG_VALUES);
  if (!tally) throw new Error("the facet profiles refused filters split for them");
  // A common term's tally takes a few milliseconds: not in one turn with the steps after it.
  await yieldToEventLoop();
  return { count: { value: tally.total, exact: true }, facets: facetsFromTally(tally, true, snap.generation) };
}

/** Exact count alone of a filter set (the organisation heading's). */
export async function countFromMemory(snap: CatalogSnapshot, index: ListingIndex, filters: CatalogFilters): Promise<CatalogCount> {
  const match = await rowMatch(snap, index, filters);
  const value = match.candidates ? match.candidates.length : index.countFilters(split(filters).profile);
  if (value === null) throw new Error("the facet profiles refused filters split for them");
  return { value, exact: true };
}

/**
 * The filters the facet profiles hold (task, licence, provider, bare tags, sizes in whole buckets),
 * and the rest, which become candidate rows: a search from the id text, every other filter from
 * its predicate's own index lookup (`Pred.rows`). A kind of filter the profiles do not know stays
 * in the rest, so the index answers it without a change here.
 */
/** Whether the facet profiles alone hold every filter, so the index's tally of them is exact. */
export const profilesHold = (filters: CatalogFilters): boolean => isUnfiltered(split(filters).rest);

function split(filters: CatalogFilters): { profile: CatalogFilters; rest: CatalogFilters } {
  const { pipelineTag, license, provider, tags, paramsMin, paramsMax } = filters;
  const wholeBuckets = (paramsMin === null && paramsMax === null) || bucketsCovering(paramsMin ?? 0, paramsMax) !== null;
  const bare = tags.filter((t) => !t.includes(":"));
  const profile: CatalogFilters = {
    ...emptyFilters(),
    pipelineTag,
    license,
    provider,
    tags: bare,
    paramsMin: wholeBuckets ? paramsMin : null,
    paramsMax: wholeBuckets ? paramsMax : null,
  };
  const rest: CatalogFilters = {
    ...filters,
    pipelineTag: null,
    license: null,
    provider: null,
    tags: tags.filter((t) => !bare.includes(t)),
    paramsMin: wholeBuckets ? null : paramsMin,
    paramsMax: wholeBuckets ? null : paramsMax,
  };
  return { profile, rest };
}

/** The rows matching `filters` as the index tells them, shared by a view's pages and counts. */
function rowMatch(snap: CatalogSnapshot, index: ListingIndex, filters: CatalogFilters): Promise<RowMatch> {
  return remember(
    snap,
    `match\u0000${filtersKey(filters)}`,
    async () => {
      const { profile, rest } = split(filters);
      const profiles = index.profileMask(profile);
      if (!profiles) throw new Error("the facet profiles refused filters split for them");
      await yieldToEventLoop();
      let candidates: Uint32Array | null = null;
      const sources: Array<() => Promise<Uint32Array>> = [
        ...(rest.search ? searchWords(rest.search) : []).map((word) => () => wordRows(snap, index, word)),
        ...buildPredicates(snap.handle.dialect, rest)
          .filter((p) => p.kind !== "search")
          .map((p) => () => predRows(snap, p)),
      ];
      for (const source of sources) {
        const rows = await source();
        if (candidates === null) candidates = rows;
        else {
          const keep = new Set(rows);
          candidates = candidates.filter((rid) => keep.has(rid));
        }
        if (candidates.length === 0) break;
      }
      return { profiles, candidates: candidates && index.keepProfiles(candidates, profiles) };
    },
    (m) => m.profiles.byteLength + (m.candidates?.byteLength ?? 0),
  );
}

/** Rows whose id contains the word; shared by every filter set with that word. */
function wordRows(snap: CatalogSnapshot, index: ListingIndex, word: string): Promise<Uint32Array> {
  return remember(snap, `search\u0000${word}`, () => index.listing.ids.find(word, yieldToEventLoop), (rows) => rows.byteLength);
}

/** A filter's rows from its own index (an author's, a prefixed tag's, a size range's). */
function predRows(snap: CatalogSnapshot, pred: Pred): Promise<Uint32Array> {
  const rows = pred.rows;
  if (!rows) throw new Error(`no row lookup for a ${pred.kind} filter`);
  return remember(
    snap,
    `rows\u0000${pred.kind}\u0000${pred.value}`,
    async () => {
      const r = await sql<{ rid: number }>`${rows}`.execute(snap.handle.reader);
      return Uint32Array.from(r.rows, (x) => Number(x.rid));
    },
    (x) => x.byteLength,
  );
}

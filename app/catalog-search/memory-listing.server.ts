import { sql } from "kysely";
import type { CatalogCount, CatalogPage, Counted } from "#app/catalog-search/answer-types.ts";
import type { FacetIndex, RowMatch } from "#app/catalog-search/facet-index.server.ts";
import { MAX_TAG_VALUES, facetsFromTally } from "#app/catalog-search/facets.server.ts";
import { type CatalogFilters, filtersKey, searchWords } from "#app/catalog-search/listing-params.ts";
import { type PageQuery, pageOfRids, rowsByRid } from "#app/catalog-search/planner.server.ts";
import type { CatalogSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { yieldToEventLoop } from "#app/utils/time-slice.server.ts";

/**
 * Listing answers from the in-memory index of the snapshot's generation
 * (docs/decisions/0027-listing-answered-from-memory.md): the matching rows come from the facet
 * profiles, the id text (a search) and the author's rows; a page is a walk of the sort's order
 * over them, and only its 30 rows are read from the database. Null whenever the index cannot
 * answer exactly (not built yet, a prefixed tag, a size range inside a bucket, a non-ASCII
 * search, a keyset cursor): the SQL planner answers those.
 */

/** Matching rows up to which a page is sorted by the database rather than walked in memory. */
const SORT_IN_DATABASE_BELOW = 3_000;

/** A sorted page of `filters`, or null when the index cannot answer it. */
export async function pageFromMemory(snap: CatalogSnapshot, filters: CatalogFilters, query: PageQuery): Promise<CatalogPage | null> {
  const index = snap.index;
  const order = index?.listing?.orders[query.sort];
  if (!index || !order || query.after) return null;
  const match = await rowMatch(snap, index, filters);
  if (!match) return null;
  // A few matching rows are sorted by the database, off the event loop; a walk of the whole order
  // would visit every row to find them.
  const few = match.candidates ? index.matchingRows({ ...match, candidates: match.candidates }) : null;
  const rows =
    few && few.length <= SORT_IN_DATABASE_BELOW
      ? await pageOfRids(snap.handle, few, query)
      : await rowsByRid(snap.handle, await index.page(order, query.ascending, match, query.offset, query.limit, yieldToEventLoop), query.sort);
  return { models: rows.models, plan: "memory", next: rows.models.length === query.limit ? rows.last : null };
}

/**
 * Exact count and facets of a filter set with a search or an author (those without are the facet
 * index's own tally), or null when the index cannot answer it.
 */
export async function countedFromMemory(snap: CatalogSnapshot, filters: CatalogFilters): Promise<Counted | null> {
  const index = snap.index;
  if (!index?.listing || (!filters.search && !filters.author)) return null;
  const match = await rowMatch(snap, index, filters);
  if (!match?.candidates) return null;
  const rows = index.matchingRows({ ...match, candidates: match.candidates });
  // A common term's tally takes a few milliseconds: not in one turn with the steps before it.
  await yieldToEventLoop();
  const tally = index.tallyRids(rows, MAX_TAG_VALUES);
  await yieldToEventLoop();
  return { count: { value: rows.length, exact: true }, facets: facetsFromTally(tally, true, snap.generation) };
}

/** Exact count alone of a filter set with a search or an author (the organisation heading's). */
export async function countFromMemory(snap: CatalogSnapshot, filters: CatalogFilters): Promise<CatalogCount | null> {
  const index = snap.index;
  if (!index?.listing || (!filters.search && !filters.author)) return null;
  const match = await rowMatch(snap, index, filters);
  if (!match?.candidates) return null;
  return { value: index.matchingRows({ ...match, candidates: match.candidates }).length, exact: true };
}

/** The rows matching `filters` as the index tells them, shared by a request's page and count. */
function rowMatch(snap: CatalogSnapshot, index: FacetIndex, filters: CatalogFilters): Promise<RowMatch | null> {
  return remembered(snap, `match\u0000${filtersKey(filters)}`, async () => {
    const profiles = index.profileMask(filters);
    if (!profiles) return null;
    await yieldToEventLoop();
    let candidates: Uint32Array | null = null;
    if (filters.search) {
      candidates = await searchRows(snap, index, filters.search);
      if (!candidates) return null;
    }
    if (filters.author) {
      const authored = await authorRows(snap, filters.author);
      if (candidates) {
        const keep = new Set(authored);
        candidates = candidates.filter((rid) => keep.has(rid));
      } else candidates = authored;
    }
    return { profiles, candidates };
  });
}

/** Rows whose id contains every word of the search (searchWords), in the first word's order. */
async function searchRows(snap: CatalogSnapshot, index: FacetIndex, search: string): Promise<Uint32Array | null> {
  let rows: Uint32Array | null = null;
  for (const word of searchWords(search)) {
    const found = await wordRows(snap, index, word);
    if (!found) return null;
    if (rows === null) rows = found;
    else {
      const keep = new Set(found);
      rows = rows.filter((rid) => keep.has(rid));
    }
    if (rows.length === 0) break;
  }
  return rows;
}

/** Rows whose id contains the word; shared by every filter set with that word. */
function wordRows(snap: CatalogSnapshot, index: FacetIndex, word: string): Promise<Uint32Array | null> {
  return remembered(snap, `search\u0000${word}`, () => index.listing!.ids.find(word, yieldToEventLoop));
}

/** An author's rows, from the author index. */
function authorRows(snap: CatalogSnapshot, author: string): Promise<Uint32Array> {
  return remembered(snap, `author\u0000${author}`, async () => {
    const r = await sql<{ rid: number }>`select rid from models where author = ${author}`.execute(snap.handle.reader);
    return Uint32Array.from(r.rows, (x) => Number(x.rid));
  });
}

/** Kept per generation, sized once known: a common term's rows run to a few hundred kilobytes. */
function remembered<T extends RowMatch | Uint32Array | null>(snap: CatalogSnapshot, key: string, compute: () => Promise<T>): Promise<T> {
  const memo = snap.memos.rows;
  const k = `${snap.generation}\u0000${key}`;
  const hit = memo.get(k);
  if (hit) return hit.value as Promise<T>;
  const value = compute();
  memo.set(k, { value, bytes: 64 });
  value.then(
    (v) => {
      if (memo.get(k)?.value === value) memo.set(k, { value, bytes: 64 + sizeOf(v) });
    },
    () => memo.delete(k),
  );
  return value;
}

function sizeOf(v: RowMatch | Uint32Array | null): number {
  if (v === null) return 0;
  if (v instanceof Uint32Array) return v.byteLength;
  return v.profiles.byteLength + (v.candidates?.byteLength ?? 0);
}

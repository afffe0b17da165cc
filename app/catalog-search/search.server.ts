import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { CatalogCount, CatalogPage, Counted, PageQuery } from "#app/catalog-search/answer-types.ts";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import { type CatalogFilters, filtersKey } from "#app/catalog-search/listing-params.ts";
import { answersListings, countFromMemory, countedFromMemory, pageFromMemory, profilesHold } from "#app/catalog-search/index/memory-listing.server.ts";
import { type CatalogSnapshot, remember } from "#app/catalog-search/snapshot.server.ts";
import { sqlCount, sqlCounted, sqlPage } from "#app/catalog-search/sql/sql-listing.server.ts";
import type { Cursor } from "#app/catalog-search/sql/sql.server.ts";

/** What to count beside the page: nothing (the API), the matches, or the matches and their facets (the listing pages). */
export type SearchCounts = "none" | "total" | "facets";

export interface SearchPage<C extends SearchCounts> extends PageQuery {
  counts: C;
}

export interface SearchResult<C extends SearchCounts> {
  models: CatalogModelSummary[];
  /** Where the next page starts, when this one was full. */
  next: Cursor | null;
  /** Which path answered ("memory" or "sql"), for benchmarks and debugging. */
  plan: string;
  count: C extends "none" ? null : CatalogCount;
  facets: C extends "facets" ? CatalogFacets : null;
}

/**
 * The one way into catalogue search: a page of models matching `filters` in the snapshot's
 * catalogue and, as `page.counts` asks, their count and facets. A page of no rows (`limit` 0)
 * only counts. The in-memory index answers once built for the snapshot's generation
 * (memory-listing.server.ts); until then, and without its listing part, one plain query per view
 * does (sql-listing.server.ts). Answers are kept in the snapshot's result cache.
 */
export async function search<C extends SearchCounts>(snapshot: CatalogSnapshot, filters: CatalogFilters, page: SearchPage<C>): Promise<SearchResult<C>> {
  const { counts, ...query } = page;
  const [list, counted] = await Promise.all([
    query.limit > 0 ? findPage(snapshot, filters, query) : { models: [], next: null, plan: "none" },
    counts === "facets" ? countAndFacets(snapshot, filters) : counts === "total" ? countOnly(snapshot, filters).then((count) => ({ count, facets: null })) : null,
  ]);
  return { models: list.models, next: list.next, plan: list.plan, count: counted?.count ?? null, facets: counted?.facets ?? null } as SearchResult<C>;
}

/** Objects of one summary row, for the cache's byte budget. */
const ROW_BYTES = 1_500;

function findPage(snap: CatalogSnapshot, filters: CatalogFilters, query: PageQuery): Promise<CatalogPage> {
  const after = query.after ? JSON.stringify(query.after) : "";
  const key = `page\u0000${filtersKey(filters)}\u0000${query.sort}\u0000${query.ascending}\u0000${query.offset}\u0000${query.limit}\u0000${after}`;
  const index = snap.index;
  return remember(
    snap,
    key,
    () => (answersListings(index) ? pageFromMemory(snap, index, filters, query) : sqlPage(snap.handle, filters, query)),
    (p) => p.models.length * ROW_BYTES,
  );
}

/**
 * Which path counts: a page is the same rows whichever answers it (the equivalence tests), but the
 * plain queries' counts may be capped, and are not kept once the index can count exactly.
 */
const counter = (snap: CatalogSnapshot) => (answersListings(snap.index) ? "memory" : snap.index ? "profiles" : "sql");

/** Count and facets by filters alone: paging and re-sorting a view (most navigations) keep them. */
function countAndFacets(snap: CatalogSnapshot, filters: CatalogFilters): Promise<Counted> {
  const index = snap.index;
  return remember(
    snap,
    `counted\u0000${counter(snap)}\u0000${filtersKey(filters)}`,
    () => (answersListings(index) ? countedFromMemory(snap, index, filters) : sqlCounted(snap, filters, profilesHold(filters))),
    (c) => 2_000 + c.facets.tags.length * 64,
  );
}

function countOnly(snap: CatalogSnapshot, filters: CatalogFilters): Promise<CatalogCount> {
  const index = snap.index;
  return remember(snap, `count\u0000${counter(snap)}\u0000${filtersKey(filters)}`, () => (answersListings(index) ? countFromMemory(snap, index, filters) : sqlCount(snap, filters, profilesHold(filters))), () => 32);
}

import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { CatalogCount, CatalogPage } from "#app/catalog-search/answer-types.ts";
import { countAndFacets, countCatalog } from "#app/catalog-search/counts.server.ts";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import { type CatalogFilters, filtersKey } from "#app/catalog-search/listing-params.ts";
import { type PageQuery, listCatalogPage } from "#app/catalog-search/planner.server.ts";
import { pageFromMemory } from "#app/catalog-search/memory-listing.server.ts";
import type { CatalogSnapshot } from "#app/catalog-search/snapshot.server.ts";
import type { Cursor } from "#app/catalog-search/sql.server.ts";

/** What to count beside the page: nothing (the API), the matches, or the matches and their facets (the listing pages). */
export type SearchCounts = "none" | "total" | "facets";

export interface SearchPage<C extends SearchCounts> extends PageQuery {
  counts: C;
}

export interface SearchResult<C extends SearchCounts> {
  models: CatalogModelSummary[];
  /** Where the next page starts, when this one was full. */
  next: Cursor | null;
  /** How the page was found, for benchmarks and debugging. */
  plan: string;
  count: C extends "none" ? null : CatalogCount;
  facets: C extends "facets" ? CatalogFacets : null;
}

/**
 * The one way into catalogue search: a page of models matching `filters` in the snapshot's
 * catalogue and, as `page.counts` asks, their count and facets. A page of no rows (`limit` 0)
 * only counts.
 */
export async function search<C extends SearchCounts>(snapshot: CatalogSnapshot, filters: CatalogFilters, page: SearchPage<C>): Promise<SearchResult<C>> {
  const { counts, ...query } = page;
  const [list, counted] = await Promise.all([
    query.limit > 0 ? rememberedPage(snapshot, filters, query) : { models: [], next: null, plan: "none" },
    counts === "facets" ? countAndFacets(snapshot, filters) : counts === "total" ? countCatalog(snapshot, filters).then((count) => ({ count, facets: null })) : null,
  ]);
  return { models: list.models, next: list.next, plan: list.plan, count: counted?.count ?? null, facets: counted?.facets ?? null } as SearchResult<C>;
}

/**
 * A sorted page, kept per catalogue generation once the statistics are current (as the planner's
 * own memos are): a page is a pure function of the filters and the data, and a common term's page
 * costs a bounded walk each time it is read. Concurrent readers of one page share one query.
 */
function rememberedPage(snapshot: CatalogSnapshot, filters: CatalogFilters, query: PageQuery): Promise<CatalogPage> {
  if (!snapshot.stats || snapshot.stats.stale) return findPage(snapshot, filters, query);
  const memo = snapshot.memos.pages;
  const after = query.after ? JSON.stringify(query.after) : "";
  const key = `${snapshot.generation}\u0000${filtersKey(filters)}\u0000${query.sort}\u0000${query.ascending}\u0000${query.offset}\u0000${query.limit}\u0000${after}`;
  const hit = memo.get(key);
  if (hit) return hit.page;
  const page = findPage(snapshot, filters, query);
  memo.set(key, { page, limit: query.limit });
  page.catch(() => memo.delete(key));
  return page;
}

/** From the in-memory index when it can answer, else from the database through the planner. */
async function findPage(snapshot: CatalogSnapshot, filters: CatalogFilters, query: PageQuery): Promise<CatalogPage> {
  return (await pageFromMemory(snapshot, filters, query)) ?? listCatalogPage(snapshot, filters, query);
}

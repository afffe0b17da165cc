import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import { type CatalogCount, countAndFacets, countCatalog } from "#app/catalog-search/counts.server.ts";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import type { CatalogFilters } from "#app/catalog-search/listing-params.ts";
import { type PageQuery, listCatalogPage } from "#app/catalog-search/planner.server.ts";
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
    query.limit > 0 ? listCatalogPage(snapshot, filters, query) : { models: [], next: null, plan: "none" },
    counts === "facets" ? countAndFacets(snapshot, filters) : counts === "total" ? countCatalog(snapshot, filters).then((count) => ({ count, facets: null })) : null,
  ]);
  return { models: list.models, next: list.next, plan: list.plan, count: counted?.count ?? null, facets: counted?.facets ?? null } as SearchResult<C>;
}

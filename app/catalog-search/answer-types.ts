/**
 * The shapes of the catalogue's questions and answers that a snapshot's result cache keeps
 * (snapshot.server.ts): page queries, counts, listing pages and API pages. They live apart from the modules that compute them so the snapshot,
 * which every one of those modules reads, depends on none of them (no import cycle, ADR 0042).
 */
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import type { Cursor } from "#app/catalog-search/sql/sql.server.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";

/** Which page of a listing: a sort, a direction, and an offset or a keyset cursor. */
export interface PageQuery {
  sort: SortKey;
  ascending: boolean;
  offset: number;
  limit: number;
  /** Resume after this row (keyset pagination, for the API's Link: rel="next"). */
  after?: Cursor | null;
}

export interface CatalogCount {
  /** Exact when `exact`, else a lower bound (COUNT_CAP + 1 means "more than COUNT_CAP"). */
  value: number;
  exact: boolean;
}

export interface Counted {
  count: CatalogCount;
  facets: CatalogFacets;
}

/** One sorted page of the listing (search.server.ts). */
export interface CatalogPage {
  models: CatalogModelSummary[];
  /** How the page was found, for benchmarks and debugging. */
  plan: string;
  /** Where the next page starts, when this one was full. */
  next: Cursor | null;
}

/** What a sort can rank in the whole catalogue (views/sort-coverage.server.ts). */
export interface CatalogueCoverage {
  rows: number;
  /** Rows the sort cannot rank: no trending score, no update or creation date, or no counts. */
  unranked: number;
  /** The snapshot dates of the catalogue's trending scores (the first and the last), or null when no row carries one. */
  asOf: { from: string; to: string } | null;
}

/** One page of `GET /api/models` (hub-list.server.ts): the JSON body as sent, and where the next page starts. */
export interface HubListPage {
  /** UTF-8 bytes, so a repeat is not encoded again (as kept documents are, ADR 0035). */
  body: Buffer<ArrayBuffer>;
  next: Cursor | null;
}

import type { Kysely } from "kysely";
import { ensureFacetIndex, facetIndexFor, logUnlessClosed, recountFacets, scheduleExactFacets } from "#app/catalog-search/background.server.ts";
import type { CatalogCount, CatalogPage, Counted, HubListPage } from "#app/catalog-search/answer-types.ts";
import { type CatalogFacets, type FacetMemory, type FacetSource, newFacetMemory, readFacetCache } from "#app/catalog-search/facets.server.ts";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";
import type { RowMatch } from "#app/catalog-search/facet-index.server.ts";
import { Lru } from "#app/utils/lru.ts";

/**
 * One request's view of the catalogue (docs/decisions/0018-catalog-search-snapshot.md): the
 * generation, read from `meta` once, the unfiltered statistics the planner estimates with, the
 * facet index of that generation if built, and the memos its answers share with other requests.
 */
export interface CatalogSnapshot extends FacetSource {
  /** The unfiltered facets: exact per-value selectivities. Null before the first count of a catalogue. */
  stats: CatalogFacets | null;
  memos: CatalogMemos;
}

/** The ids matching a search term, up to a cap. */
export interface SearchIds {
  rids: number[];
  /** The cap the ids were read up to; fewer ids than this means every match. */
  cap: number;
}

/**
 * What requests remember for later ones, bounded, per database. Keys carry the catalogue
 * generation, so an import makes old entries unreachable and they age out.
 */
export interface CatalogMemos {
  /** Search matches by term: a trigram scan costs 10–120 ms even for a rare term. */
  search: Lru<Promise<SearchIds>>;
  /** Planner inputs that depend on the data alone: estimates, capped counts, a walk's edge. */
  plan: Lru<Promise<unknown>>;
  /** Count and facets by filter set: paging and re-sorting a view keep its filters. */
  counted: Lru<Counted>;
  /** Counts asked for without facets (the organisation heading). */
  counts: Lru<CatalogCount>;
  /** Exact facets in front of the facet_cache table. */
  facets: FacetMemory;
  /** `GET /api/models` pages as sent (hub-list.server.ts). */
  hubPages: Lru<HubListPage>;
  /** Sorted pages by filter set and page (search.server.ts): a common term's page costs a walk every time. */
  pages: Lru<{ page: Promise<CatalogPage>; limit: number }>;
  /** Rows matching a search, an author or a filter set, from the in-memory index (memory-listing.server.ts). */
  rows: Lru<{ value: Promise<RowMatch | Uint32Array | null>; bytes: number }>;
}

/** Empty memos; a snapshot with these answers as the first request of a process would. */
export function newMemos(): CatalogMemos {
  return {
    search: new Lru({ maxEntries: 64 }),
    plan: new Lru({ maxEntries: 256 }),
    counted: new Lru({ maxEntries: 500 }),
    counts: new Lru({ maxEntries: 500 }),
    facets: newFacetMemory(),
    // A page of 1,000 full items runs to megabytes, a default page of 30 to some 20 KB.
    hubPages: new Lru({ maxBytes: 8 * 1024 * 1024, sizeOf: (page) => page.body.byteLength }),
    // Sized by the rows a page may hold (a summary is under 1.5 KB of objects), so 1,000-row API
    // pages and 30-row listing pages share one budget.
    pages: new Lru({ maxBytes: 16 * 1024 * 1024, sizeOf: (entry) => entry.limit * 1_500 }),
    rows: new Lru({ maxBytes: 24 * 1024 * 1024, sizeOf: (entry) => entry.bytes }),
  };
}

const memosByDb = new WeakMap<Kysely<Database>, CatalogMemos>();

function memosFor(db: Kysely<Database>): CatalogMemos {
  let memos = memosByDb.get(db);
  if (!memos) memosByDb.set(db, (memos = newMemos()));
  return memos;
}

const UNFILTERED: CatalogFilters = emptyFilters();

/**
 * Opens a snapshot for one request. Reads the generation and the unfiltered statistics, and starts
 * (off the request path) whatever this generation still lacks: its statistics or its facet index.
 */
export async function openSnapshot(handle: DatabaseHandle): Promise<CatalogSnapshot> {
  const generation = await getCatalogueGeneration(handle.db);
  const memos = memosFor(handle.db);
  const stats = await knownFacets({ handle, generation, memos }, UNFILTERED);
  // Stored counts outlive the process; the index is rebuilt in each one, in the background.
  if (stats && !stats.stale) ensureFacetIndex(handle, stats.generation).catch(logUnlessClosed);
  if (!stats) void scheduleExactFacets(handle, memos.facets, UNFILTERED);
  return { handle, generation, stats, index: facetIndexFor(handle, generation), memos };
}

/**
 * Exact facets for `filters` if some generation of them is known. Those of an older generation
 * come back marked `stale`, and their recount is scheduled.
 */
export async function knownFacets(
  snapshot: Pick<CatalogSnapshot, "handle" | "generation" | "memos">,
  filters: CatalogFilters,
): Promise<CatalogFacets | null> {
  const { handle, generation, memos } = snapshot;
  const entry = await readFacetCache(handle, memos.facets, filters, generation);
  if (!entry) return null;
  if (entry.generation === generation) return entry.facets;
  void scheduleExactFacets(handle, memos.facets, filters);
  return { ...entry.facets, stale: true };
}

/**
 * Starts the catalogue's background work (its unfiltered statistics, then its facet index) and
 * resolves with the statistics once both are ready: the server calls it on start, off the request
 * path, so the first visitor of /models does not pay for them.
 */
export async function startBackgroundWork(handle: DatabaseHandle): Promise<CatalogFacets> {
  const generation = await getCatalogueGeneration(handle.db);
  const memos = memosFor(handle.db);
  const cached = await knownFacets({ handle, generation, memos }, UNFILTERED);
  if (cached && !cached.stale) {
    await ensureFacetIndex(handle, cached.generation);
    return cached;
  }
  return scheduleExactFacets(handle, memos.facets, UNFILTERED) ?? recountFacets(handle, UNFILTERED);
}

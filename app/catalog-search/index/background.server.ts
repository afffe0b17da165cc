import type { Kysely } from "kysely";
import type { FacetIndex } from "#app/catalog-search/index/facet-index.server.ts";
import { buildFacetIndexInThread } from "#app/catalog-search/index/facet-index-thread.server.ts";
import { startSearchThreads } from "#app/catalog-search/index/id-search-thread.server.ts";
import { readFacetIndex } from "#app/catalog-search/facets.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";
import { listingIndexBuildSeconds, listingIndexGeneration } from "#app/utils/metrics.server.ts";
import { runInBackground } from "#app/utils/time-slice.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";

/**
 * Catalogue work done off the request path: the facet index of each catalogue generation (built
 * once, shared by every request of that generation). Requests only ever read what is finished;
 * app/catalog-search/snapshot.server.ts starts the work.
 */

// ---- facet index registry --------------------------------------------------------------------

interface Built {
  generation: number;
  /** Null when this generation's row ids were too sparse to index. */
  index: FacetIndex | null;
}

// Module state: `modelyard serve` warms the index and answers requests with one copy of this module (ADR 0019).
const built = new WeakMap<Kysely<Database>, Built>();
const building = new WeakMap<Kysely<Database>, { generation: number; promise: Promise<FacetIndex | null> }>();

/** The facet index of this catalogue generation, once built (see app/catalog-search/index/facet-index.server.ts). */
export function facetIndexFor(handle: DatabaseHandle, generation: number): FacetIndex | null {
  const b = built.get(handle.db);
  return b && b.generation === generation ? b.index : null;
}

/** Where this generation's index stands, for readiness (app/catalog-search/readiness.server.ts). */
export type ListingIndexState = { state: "ready"; generation: number } | { state: "unindexable"; generation: number } | { state: "building"; generation: number | null };

export function listingIndexState(handle: DatabaseHandle, generation: number): ListingIndexState {
  const b = built.get(handle.db);
  if (b && b.generation === generation) return b.index ? { state: "ready", generation } : { state: "unindexable", generation };
  // An older generation's index still answers while the new one builds (ADR 0034).
  return { state: "building", generation: b?.generation ?? null };
}

/**
 * Builds this generation's index unless it is built or being built; resolves with it (null when
 * the catalogue cannot be indexed). A build that fails is remembered as "no index" until the next
 * generation.
 */
export function ensureFacetIndex(handle: DatabaseHandle, generation: number): Promise<FacetIndex | null> {
  const db = handle.db;
  const done = built.get(db);
  if (done && done.generation === generation) return Promise.resolve(done.index);
  const running = building.get(db);
  if (running && running.generation === generation) return running.promise;
  // Background work even when a request's count asked for it: its slices keep their own turn.
  const promise = runInBackground(() => buildFacetIndex(handle, generation))
    .catch((e: unknown) => {
      // Remembered, so a broken row does not start a full build on every request; the database
      // answers for this generation.
      register(handle, generation, null);
      throw e;
    })
    .finally(() => {
      if (building.get(db)?.promise === promise) building.delete(db);
    });
  building.set(db, { generation, promise });
  return promise;
}

/** What a finished index build reports to `onFacetIndexBuilt` listeners. */
export interface IndexBuilt {
  generation: number;
  /** Whether it became the index requests are answered from (not overtaken by a newer import). */
  current: boolean;
  /** False when the catalogue's row ids were too sparse to index: the database answers listings. */
  indexed: boolean;
  /** True when it was loaded as saved with its generation rather than built (ADR 0045). */
  loaded: boolean;
  ms: number;
}

const builtListeners = new Set<(e: IndexBuilt) => void>();

/**
 * Calls `listener` after each index build: `modelyard serve` logs the rebuild after an import, so
 * an operator (and the mixed-traffic bench) can tell when listing pages are answered from memory
 * again. Returns the unsubscribe function.
 */
export function onFacetIndexBuilt(listener: (e: IndexBuilt) => void): () => void {
  builtListeners.add(listener);
  return () => builtListeners.delete(listener);
}

async function buildFacetIndex(handle: DatabaseHandle, generation: number): Promise<FacetIndex | null> {
  const started = performance.now();
  // The search threads load while the index does, rather than when the first search waits for them.
  if (getEnv().MODELYARD_LISTING_INDEX) startSearchThreads();
  // In a worker thread when another connection can see this database (ADR 0032), which loads the
  // index saved with this generation or builds and saves it (ADR 0045).
  const { index, loaded } = handle.reopenUrl
    ? await buildFacetIndexInThread(handle.reopenUrl, generation).catch(async (e: unknown) => {
        // The thread's own connection fails when the database went away (shutdown, a test
        // dropping it); reported as this handle reports it, that is the closed database it is.
        await getCatalogueGeneration(handle.db);
        throw e;
      })
    : { index: await readFacetIndex(handle, generation), loaded: false };
  // An import that landed meanwhile made this a snapshot of an older generation: still right for
  // the caller's count of that generation, never served as the current one. An unindexable
  // catalogue stays unindexable until its next generation.
  const current = !index || (await getCatalogueGeneration(handle.db)) === generation;
  if (current) register(handle, generation, index);
  listingIndexBuildSeconds.observe((performance.now() - started) / 1000);
  if (current && index) listingIndexGeneration.set(generation);
  for (const listener of builtListeners) listener({ generation, current, indexed: index !== null, loaded, ms: Math.round(performance.now() - started) });
  return index;
}

/** Records this generation's index (or that it has none), unless a newer one is recorded. */
function register(handle: DatabaseHandle, generation: number, index: FacetIndex | null): void {
  const previous = built.get(handle.db);
  if (!previous || previous.generation <= generation) built.set(handle.db, { generation, index });
}

// ---- errors ----------------------------------------------------------------------------------

/** A closed database (shutdown, tests) is expected; anything else is worth a line in the log. */
export function logUnlessClosed(e: unknown): void {
  if (!(e instanceof Error && /closed|destroyed|terminat/i.test(e.message))) log().error({ err: e }, "catalogue index build failed");
}

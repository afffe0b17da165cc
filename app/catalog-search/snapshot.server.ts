import type { Kysely } from "kysely";
import { ensureFacetIndex, facetIndexFor, logUnlessClosed } from "#app/catalog-search/index/background.server.ts";
import type { FacetIndex } from "#app/catalog-search/index/facet-index.server.ts";
import type { FacetSource } from "#app/catalog-search/facets.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getCatalogueGeneration, pingDatabase } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";
import { Lru } from "#app/utils/lru.ts";

/**
 * One request's view of the catalogue (docs/decisions/0018-catalog-search-snapshot.md): the
 * generation, read from `meta` once, the facet index of that generation if built, and the one
 * result cache its answers share with other requests.
 */
export interface CatalogSnapshot extends FacetSource {
  results: ResultCache;
}

/**
 * Answers kept for later requests (pages, counts, facets, API bodies, a search's rows), bounded by
 * bytes, per database. Keys carry the catalogue generation, so an import makes old entries
 * unreachable and they age out.
 */
export type ResultCache = Lru<{ value: Promise<unknown>; bytes: number }>;

/**
 * A 30-row listing page is about 20 KB of objects, a common term's rows a few hundred KB, a 1,000-row
 * API body a few MB: a byte budget holds several hundred views.
 */
const RESULT_CACHE_BYTES = 32 * 1024 * 1024;

/** An empty cache; a snapshot with one answers as the first request of a process would. */
export function newResultCache(): ResultCache {
  return new Lru({ maxBytes: RESULT_CACHE_BYTES, sizeOf: (entry) => entry.bytes });
}

const cacheByDb = new WeakMap<Kysely<Database>, ResultCache>();

function resultsFor(db: Kysely<Database>): ResultCache {
  let cache = cacheByDb.get(db);
  if (!cache) cacheByDb.set(db, (cache = newResultCache()));
  return cache;
}

/**
 * The answer kept under `key` for this snapshot's generation, else `compute`'s,
 * kept once it resolves and sized by `sizeOf` (a failure is not kept). Concurrent readers of one
 * key share one computation.
 */
export function remember<T>(snap: CatalogSnapshot, key: string, compute: () => Promise<T>, sizeOf: (value: T) => number): Promise<T> {
  const k = `${snap.generation}\u0000${key}`;
  const hit = snap.results.get(k);
  if (hit) return hit.value as Promise<T>;
  const value = compute();
  snap.results.set(k, { value, bytes: 64 + k.length });
  value.then(
    (v) => {
      if (snap.results.get(k)?.value === value) snap.results.set(k, { value, bytes: 64 + k.length + sizeOf(v) });
    },
    () => snap.results.delete(k),
  );
  return value;
}

/** The index build a request started, per database, until it settles. */
const started = new WeakMap<Kysely<Database>, Promise<unknown>>();

/**
 * Opens a snapshot for one request: reads the generation and starts, off the request path, this
 * generation's facet index if it is not built. One build at a time: an import bumps the
 * generation batch after batch, and a build per batch would run several full reads of the
 * catalogue at once; the first request after a build settles starts the newest generation's.
 */
export async function openSnapshot(handle: DatabaseHandle): Promise<CatalogSnapshot> {
  const generation = await getCatalogueGeneration(handle.db);
  const index = facetIndexFor(handle, generation);
  if (!index && !started.has(handle.db)) {
    const build = ensureFacetIndex(handle, generation)
      .catch(logUnlessClosed)
      .finally(() => started.delete(handle.db));
    started.set(handle.db, build);
  }
  return { handle, generation, index, results: resultsFor(handle.db) };
}

/**
 * Builds the current generation's facet index and resolves with it (null when the catalogue cannot
 * be indexed): the server calls it on start, off the request path, so visitors of /models are
 * answered from memory as soon as possible.
 */
export async function startBackgroundWork(handle: DatabaseHandle): Promise<FacetIndex | null> {
  // The SQLite reader threads start now, while the index loads: the first listing's row read
  // waited ~115 ms for them at 3.04M rows (issue 33). A failure is the first visitor's to report.
  void pingDatabase(handle.reader).catch(() => undefined);
  return ensureFacetIndex(handle, await getCatalogueGeneration(handle.db));
}

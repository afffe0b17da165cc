import type { CatalogCount, Counted } from "#app/catalog-search/answer-types.ts";
import { scheduleExactFacets } from "#app/catalog-search/background.server.ts";
import {
  type CatalogFacets,
  countFromIndex,
  facetsForRids,
  facetsFromIndex,
  rememberExactFacets,
} from "#app/catalog-search/facets.server.ts";
import { COUNT_CAP, type CatalogFilters, filtersKey, isUnfiltered } from "#app/catalog-search/listing-params.ts";
import { countFromMemory, countedFromMemory } from "#app/catalog-search/memory-listing.server.ts";
import { collectMatchIds, statCount } from "#app/catalog-search/planner.server.ts";
import { type CatalogSnapshot, knownFacets } from "#app/catalog-search/snapshot.server.ts";
import { buildPredicates } from "#app/catalog-search/sql.server.ts";

/**
 * How many models match a filter set, and their facet counts: from the unfiltered statistics,
 * the facet index, the exact counts kept per generation, or a capped collection of match ids,
 * whichever answers first. Large match sets get exact counts off the request path.
 */

/** A single filter's exact count, when the unfiltered facets hold it. */
function exactFromStats(snap: CatalogSnapshot, filters: CatalogFilters): number | null {
  const { stats } = snap;
  if (!stats || stats.stale || !stats.exact) return null;
  if (isUnfiltered(filters)) return stats.total;
  const preds = buildPredicates(snap.handle.dialect, filters);
  if (preds.length !== 1) return null;
  return statCount(stats, preds[0]!);
}

const countedKey = (snap: CatalogSnapshot, filters: CatalogFilters) => `${snap.generation}:${filtersKey(filters)}`;

/**
 * Count and facets for a filter set, remembered per catalogue generation: paging and re-sorting a
 * view (most navigations) keep its filters, so they cost nothing after the first request. The
 * count and the facets share one capped collection of match ids.
 */
export async function countAndFacets(snap: CatalogSnapshot, filters: CatalogFilters): Promise<Counted> {
  const cache = snap.memos.counted;
  const key = countedKey(snap, filters);
  const hit = cache.get(key);
  if (hit && hit.facets.exact && !hit.facets.stale) return hit;
  if (hit) {
    // A sample was served before; switch to the exact counts once their recount has landed.
    const exact = await knownFacets(snap, filters);
    if (!exact || exact.stale || !exact.exact) return hit;
    const upgraded: Counted = { count: { value: exact.total, exact: true }, facets: exact };
    cache.set(key, upgraded);
    return upgraded;
  }
  const fresh = await computeCountAndFacets(snap, filters);
  cache.set(key, fresh);
  return fresh;
}

async function computeCountAndFacets(snap: CatalogSnapshot, filters: CatalogFilters): Promise<Counted> {
  const cached = await knownFacets(snap, filters);
  if (cached && !cached.stale && cached.exact) return { count: { value: cached.total, exact: true }, facets: cached };
  // Filters without a search or an author: exact, whatever the size, from the in-memory index.
  const indexed = await facetsFromIndex(snap, filters);
  if (indexed) {
    rememberExactFacets(snap.memos.facets, filters, indexed);
    return { count: { value: indexed.total, exact: true }, facets: indexed };
  }
  // With a search or an author: exact too, from the index's id text and the author's rows.
  const inMemory = await countedFromMemory(snap, filters);
  if (inMemory) {
    rememberExactFacets(snap.memos.facets, filters, inMemory.facets);
    return inMemory;
  }
  const exact = exactFromStats(snap, filters);
  if (exact !== null && exact > COUNT_CAP) {
    // A single common filter: the count is known; its facets come from the cache or a sample.
    const facets = cached ?? (await sampleFacets(snap, filters));
    return { count: { value: exact, exact: true }, facets };
  }
  const rids = await collectMatchIds(snap, filters);
  const complete = rids.length <= COUNT_CAP;
  if (complete) {
    const facets = await facetsForRids(snap, rids, true);
    rememberExactFacets(snap.memos.facets, filters, facets);
    return { count: { value: rids.length, exact: true }, facets };
  }
  void scheduleExactFacets(snap.handle, snap.memos.facets, filters);
  return { count: { value: rids.length, exact: false }, facets: cached ?? (await facetsForRids(snap, rids.slice(0, FACET_SAMPLE), false)) };
}

/**
 * Rows read for the stand-in facets of a large match set, shown until its exact recount lands.
 * They are lower bounds either way; reading 2,000 rows instead of 10,000 takes a first request on
 * PostgreSQL (random heap reads) from some 150 ms to some 30.
 */
export const FACET_SAMPLE = 2_000;

async function sampleFacets(snap: CatalogSnapshot, filters: CatalogFilters): Promise<CatalogFacets> {
  void scheduleExactFacets(snap.handle, snap.memos.facets, filters);
  const rids = await collectMatchIds(snap, filters, FACET_SAMPLE);
  return facetsForRids(snap, rids.slice(0, FACET_SAMPLE), rids.length <= FACET_SAMPLE);
}

/** Count only (capped): the organisation heading's total. */
export async function countCatalog(snap: CatalogSnapshot, filters: CatalogFilters): Promise<CatalogCount> {
  const exact = exactFromStats(snap, filters);
  if (exact !== null) return { value: exact, exact: true };
  // The facets' exact recount, once it has landed for this generation, carries the count too.
  const cached = await knownFacets(snap, filters);
  if (cached && cached.exact && !cached.stale) return { value: cached.total, exact: true };
  const key = countedKey(snap, filters);
  const known = snap.memos.counted.get(key)?.count ?? snap.memos.counts.get(key);
  if (known) return known;
  const indexed = countFromIndex(snap, filters);
  if (indexed !== null) return { value: indexed, exact: true };
  const inMemory = await countFromMemory(snap, filters);
  if (inMemory) return inMemory;
  const rids = await collectMatchIds(snap, filters);
  const counted = { value: rids.length, exact: rids.length <= COUNT_CAP };
  snap.memos.counts.set(key, counted);
  return counted;
}

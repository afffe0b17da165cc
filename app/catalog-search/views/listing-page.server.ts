import { type ListingState, MAX_PAGE, PAGE_SIZE, isPastEnd, lastPageOf, stateToFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import type { CatalogSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { sortCoverage } from "#app/catalog-search/views/sort-coverage.server.ts";
import { countSpacesForModels } from "#app/db/queries/spaces.server.ts";

/**
 * One page of a model listing, as /models and /<org> show it: the rows, the (capped) count, the
 * facets, and where the pages end. Both pages call this, so they cannot disagree about counts.
 */
export async function loadListingView(snapshot: CatalogSnapshot, state: ListingState) {
  // Deeper than MAX_PAGE is past the end whatever the count: ask for the first page instead, so the
  // request costs no more than any other (the count and facets are what the answer needs).
  const beyond = state.page > MAX_PAGE;
  const result = await search(snapshot, stateToFilters(state), {
    sort: state.sort,
    ascending: false,
    offset: beyond ? 0 : (state.page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    counts: "facets",
  });
  const pastEnd = isPastEnd(state.page, beyond ? 0 : result.models.length);
  const models = pastEnd ? [] : result.models;
  const count = result.count;
  const [spaces, coverage] = await Promise.all([
    countSpacesForModels(
      snapshot.handle.db,
      models.map((m) => m.id),
    ),
    sortCoverage(snapshot, stateToFilters(state), state.sort, count.exact ? count.value : null),
  ]);
  const lastPage = lastPageOf(count);
  // A count known only as a lower bound may run past the last numbered page.
  const more = !count.exact && state.page >= lastPage && state.page < MAX_PAGE && models.length === PAGE_SIZE;
  // The long tails (hundreds of licenses, languages and tags) would only weigh down the page; a
  // value not listed is still one search or URL away.
  const f = result.facets;
  const facets = { ...f, libraries: f.libraries.slice(0, 30), licenses: f.licenses.slice(0, 25), languages: f.languages.slice(0, 30), tags: f.tags.slice(0, 50) };
  return { models, count, facets, spaces, lastPage, more, pastEnd, coverage };
}

export type ListingView = Awaited<ReturnType<typeof loadListingView>>;

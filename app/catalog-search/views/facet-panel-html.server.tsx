import { renderToStaticMarkup } from "react-dom/server";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import { FacetGroups } from "#app/catalog-search/views/facet-groups.tsx";
import { type ListingState, listingHref } from "#app/catalog-search/listing-params.ts";
import { Lru } from "#app/utils/lru.ts";

// Keyed by what the markup is made of (every href is the view's own URL with one facet changed,
// so the view's page-1 URL stands for the state), so an entry can never be stale: a new
// catalogue generation or the index's exact counts change the facets, and with them the key.
const rendered = new Lru<string>({ maxBytes: 8 * 1024 * 1024, sizeOf: (html) => html.length * 2 });

/**
 * The facet panel's markup for one view, rendered once and then shared by every request of that
 * view: it is half of a /models document and was half of its render time (ADR 0025).
 */
export function facetPanelHtml(facets: CatalogFacets, state: ListingState): string {
  const key = `${listingHref(state, { page: 1 })}\u0000${JSON.stringify(facets)}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const html = renderToStaticMarkup(<FacetGroups facets={facets} state={state} />);
  rendered.set(key, html);
  return html;
}

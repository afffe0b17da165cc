import { describe, expect, it } from "vitest";
import { facetPanelHtml } from "#app/catalog-search/views/facet-panel-html.server.tsx";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import { DEFAULT_STATE, type ListingState } from "#app/catalog-search/listing-params.ts";

/** The facet markup is shared between requests; these pin that one view's links never reach another. */

const facets = (p: Partial<CatalogFacets> = {}): CatalogFacets => ({
  total: 1234,
  exact: true,
  stale: false,
  generation: 3,
  tasks: [{ value: "text-generation", count: 900 }],
  libraries: [{ value: "transformers", count: 700 }],
  licenses: [{ value: "apache-2.0", count: 300 }],
  languages: [{ value: "en", count: 200 }],
  tags: [{ value: "conversational", count: 100 }],
  providers: [],
  params: [],
  ...p,
});
const state = (p: Partial<ListingState>): ListingState => ({ ...DEFAULT_STATE, ...p });
const hrefOf = (html: string, testId: string) => new RegExp(`href="([^"]*)"[^>]*data-testid="${testId}"`).exec(html)?.[1]?.replaceAll("&amp;", "&");

describe("facetPanelHtml", () => {
  it("links each value to the view with that filter added, from page 1", () => {
    const html = facetPanelHtml(facets(), state({ search: "llama", sort: "likes", page: 4 }));
    expect(hrefOf(html, "facet-task-text-generation")).toBe("/models?search=llama&pipeline_tag=text-generation&sort=likes");
    expect(hrefOf(html, "facet-license-apache-2.0")).toBe("/models?search=llama&license=apache-2.0&sort=likes");
    expect(html).toContain("900");
  });

  it("gives two views with the same counts their own links", () => {
    const a = facetPanelHtml(facets(), state({ search: "llama" }));
    const b = facetPanelHtml(facets(), state({ search: "qwen" }));
    expect(hrefOf(a, "facet-library-transformers")).toBe("/models?search=llama&library=transformers");
    expect(hrefOf(b, "facet-library-transformers")).toBe("/models?search=qwen&library=transformers");
    // Pages of one view share one rendering.
    expect(facetPanelHtml(facets(), state({ search: "llama", page: 2 }))).toBe(a);
  });

  it("follows the counts: lower bounds over the first matches, or exact counts", () => {
    const view = state({ author: "google" });
    const sampled = facetPanelHtml(facets({ exact: false, total: 10_000 }), view);
    expect(sampled).toContain("Counts (≥) are from the first 10K matches.");
    expect(sampled).toContain("≥");
    const exact = facetPanelHtml(facets(), view);
    expect(exact).not.toContain("are from the first");
    expect(exact).not.toContain("≥");
  });

  it("marks the selected value with a link that removes it", () => {
    const html = facetPanelHtml(facets(), state({ pipelineTag: "text-generation" }));
    expect(hrefOf(html, "facet-task-text-generation")).toBe("/models");
    expect(html).toMatch(/aria-current="true"[^>]*data-testid="facet-task-text-generation"/);
  });
});

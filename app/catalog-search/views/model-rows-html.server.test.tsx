import { describe, expect, it } from "vitest";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import { modelRowsHtml } from "#app/catalog-search/views/model-rows-html.server.tsx";

const model = (p: Partial<CatalogModelSummary>): CatalogModelSummary => ({
  id: "acme/alpha",
  author: "acme",
  pipelineTag: "text-classification",
  libraryName: "transformers",
  license: "mit",
  tags: [],
  downloads: 1200,
  likes: 7,
  trendingScore: 0,
  params: null,
  createdAt: "2024-06-01T00:00:00.000Z",
  lastModified: "2024-07-01T00:00:00.000Z",
  gated: false,
  statsAsOf: "2024-07-11",
  providers: [],
  chatTemplateStatus: null,
  ...p,
});

describe("modelRowsHtml", () => {
  it("draws each row with its link, task, counts and Spaces", () => {
    const html = modelRowsHtml([model({}), model({ id: "acme/beta", likes: 3 })], { "acme/beta": 2 }, "trending");
    expect(html).toMatch(/^<ul class="space-y-2" data-testid="model-list">/);
    expect(html).toContain('href="/acme/alpha"');
    expect(html).toContain('href="/acme/beta"');
    expect(html).toContain("Updated 2024-07-01");
    expect(html).toContain("2 Spaces");
    expect(html.match(/<li /g)).toHaveLength(2);
  });

  it("renders again when a row or its Spaces count changes", () => {
    const a = modelRowsHtml([model({})], {}, "trending");
    expect(modelRowsHtml([model({})], {}, "trending")).toBe(a);
    expect(modelRowsHtml([model({ likes: 9_000 })], {}, "trending")).toContain("9K");
    expect(modelRowsHtml([model({})], { "acme/alpha": 1 }, "trending")).toContain("1 Space");
  });

  it("never shows a live row's age older than the clock allows", () => {
    const t0 = Date.parse("2024-07-01T00:00:00.000Z");
    const live = [model({ statsAsOf: null, lastModified: "2024-06-30T22:00:00.000Z" })];
    expect(modelRowsHtml(live, {}, "trending", t0)).toContain("Updated today");
    expect(modelRowsHtml(live, {}, "trending", t0 + 3 * 86_400_000)).toContain("Updated 3 days ago");
    // A snapshot's rows carry dates, not ages: one rendering whatever the time.
    expect(modelRowsHtml([model({})], {}, "trending", t0)).toBe(modelRowsHtml([model({})], {}, "trending", t0 + 3 * 3_600_000));
  });
});

import { describe, expect, it } from "vitest";
import { toHubListItem, toHubModelInfo, toHubProviderMapping } from "#app/catalog/hub-api.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { fixtureById, loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";

const plain = fixtureById(
  loadLibraryFixtures().map((f) => f.catalog),
  "timm/resnet50.a1_in1k",
);
const listOpts = { full: false, cardData: false, config: false, expand: [], extras: null };

describe("counts in the Hub-shaped API", () => {
  it("gives downloads and likes the catalogue holds, zeros of a dated snapshot included", () => {
    const counted: CatalogModel = { ...plain, downloads: 1200, likes: 7, statsAsOf: "2024-07-11" };
    expect(toHubListItem(counted, listOpts)).toMatchObject({ downloads: 1200, likes: 7 });
    expect(toHubModelInfo(counted, [], [])).toMatchObject({ downloads: 1200, likes: 7 });
    const zero: CatalogModel = { ...plain, downloads: 0, likes: 0, statsAsOf: "2024-07-11" };
    expect(toHubListItem(zero, listOpts)).toMatchObject({ downloads: 0, likes: 0 });
  });

  it("leaves them out for a model whose counts it does not hold, rather than sending the importer's zeros", () => {
    const unknown: CatalogModel = { ...plain, downloads: 0, likes: 0, statsAsOf: null };
    for (const item of [toHubListItem(unknown, listOpts), toHubModelInfo(unknown, [], []), toHubModelInfo(unknown, ["downloads", "likes"], [])]) {
      expect(item).not.toHaveProperty("downloads");
      expect(item).not.toHaveProperty("likes");
      expect(item).toHaveProperty("id", plain.id);
    }
  });
});

describe("fields a listing row does not carry", () => {
  // A row of the Hub's list API, as the bundled catalogue holds it: no sha, no files, gated unknown.
  const listRow: CatalogModel = { ...plain, sha: null, siblings: [], gated: false };

  it("leaves out gated, the file list and the Spaces for a listing row, rather than the importer's defaults", () => {
    const full = { ...listOpts, full: true };
    for (const item of [toHubModelInfo(listRow, [], []), toHubModelInfo(listRow, ["gated", "siblings", "spaces"], []), toHubListItem(listRow, full)]) {
      expect(item).not.toHaveProperty("gated");
      expect(item).not.toHaveProperty("siblings");
      expect(item).not.toHaveProperty("spaces");
      expect(item).toHaveProperty("id", plain.id);
    }
  });

  it("gives them for a full record, an ungated one and an empty file list included", () => {
    const record: CatalogModel = { ...plain, sha: "0123456789abcdef0123456789abcdef01234567", siblings: [], gated: false };
    expect(toHubModelInfo(record, [], [])).toMatchObject({ gated: false, siblings: [], spaces: [] });
    // A Space in this catalogue that names a listing row is known, whatever the row holds.
    expect(toHubModelInfo(listRow, ["spaces"], ["org/demo"])).toMatchObject({ spaces: ["org/demo"] });
    const extras = { sha: record.sha, siblings: [{ rfilename: "config.json" }], cardData: null, config: null };
    expect(toHubListItem(record, { ...listOpts, full: true, extras })).toMatchObject({ gated: false, siblings: [{ rfilename: "config.json" }] });
    expect(toHubModelInfo({ ...plain, gated: "manual" }, ["gated"], [])).toMatchObject({ gated: "manual" });
  });
});

describe("the pipeline tag in the Hub-shaped API", () => {
  it("is the record's own: a task the site took from the provider mappings is left out", () => {
    const mapped: CatalogModel = { ...plain, pipelineTag: "text-generation", pipelineTagFrom: "mapping" };
    for (const item of [toHubListItem(mapped, { ...listOpts, full: true }), toHubModelInfo(mapped, [], []), toHubModelInfo(mapped, ["pipeline_tag"], [])]) {
      expect(item).not.toHaveProperty("pipeline_tag");
    }
    const own: CatalogModel = { ...plain, pipelineTag: "image-classification", pipelineTagFrom: null };
    expect(toHubModelInfo(own, ["pipeline_tag"], [])).toHaveProperty("pipeline_tag", "image-classification");
  });
});

describe("what the Hub-shaped API leaves out rather than guess", () => {
  it("a provider mapping's unrecorded status, and the trending score of a model without counts", () => {
    const mapping = toHubProviderMapping([
      { provider: "together", providerId: "x/a", task: "conversational", status: null, adapter: null, adapterWeightsPath: null },
      { provider: "novita", providerId: "x/b", task: "conversational", status: "staging", adapter: null, adapterWeightsPath: null },
    ]);
    expect(mapping).toEqual({ together: { providerId: "x/a", task: "conversational" }, novita: { status: "staging", providerId: "x/b", task: "conversational" } });
    const uncounted: CatalogModel = { ...plain, downloads: 0, likes: 0, statsAsOf: null, trendingScore: 0 };
    expect(toHubListItem(uncounted, listOpts)).not.toHaveProperty("trendingScore");
    expect(toHubListItem({ ...plain, statsAsOf: "2024-07-11", trendingScore: 0 }, listOpts)).toHaveProperty("trendingScore", 0);
  });
});

import { describe, expect, it } from "vitest";
import { toHubListItem, toHubModelInfo } from "#app/catalog/hub-api.ts";
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

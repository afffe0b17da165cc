import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { bumpCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { findCatalogueModelIds, getTaskModelCounts } from "#app/db/queries/task-counts.server.ts";

let handle: DatabaseHandle;
let dir: string;

async function addModel(id: string, pipelineTag: string | null) {
  await handle.db
    .insertInto("models")
    .values({
      id,
      author: id.split("/")[0] ?? id,
      pipeline_tag: pipelineTag,
      library_name: null,
      license: null,
      downloads: 0,
      likes: 0,
      trending_score: 0,
      params: null,
      created_at: null,
      last_modified: null,
      gated: "false",
      stats_as_of: null,
      providers: "[]",
      tags: "[]",
      chat_template_status: null,
      imported_at: new Date().toISOString(),
    })
    .execute();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "task-counts-"));
  handle = openDatabase(`sqlite:${path.join(dir, "t.db")}`);
  await migrate(handle);
  await addModel("a/one", "text-generation");
  await addModel("a/two", "text-generation");
  await addModel("b/three", "image-classification");
  await addModel("c/none", null);
  await bumpCatalogueGeneration(handle.db);
});

afterAll(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("getTaskModelCounts", () => {
  it("counts models per pipeline tag and skips models without one", async () => {
    expect(await getTaskModelCounts(handle.db)).toEqual({ "text-generation": 2, "image-classification": 1 });
  });

  it("keeps the counts until the catalogue generation changes", async () => {
    await addModel("d/four", "image-classification");
    // Same generation: the cached figures are still served.
    expect((await getTaskModelCounts(handle.db))["image-classification"]).toBe(1);
    await bumpCatalogueGeneration(handle.db);
    expect((await getTaskModelCounts(handle.db))["image-classification"]).toBe(2);
  });
});

describe("findCatalogueModelIds", () => {
  it("returns the ids that exist, matching exactly", async () => {
    expect(await findCatalogueModelIds(handle.db, ["a/one", "A/ONE", "x/missing", "a/one"])).toEqual(new Set(["a/one"]));
    expect(await findCatalogueModelIds(handle.db, [])).toEqual(new Set());
  });
});

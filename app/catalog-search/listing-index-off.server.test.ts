import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { baselinePage } from "#tests/support/catalog-baseline.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/**
 * MODELYARD_LISTING_INDEX=0 gives back the listing index's memory (ADR 0027): the facet index is
 * built without ids and sort orders, and the planner answers every page, with the same rows.
 */

// getEnv() reads this on first use; nothing in this file has read it yet.
process.env["MODELYARD_LISTING_INDEX"] = "0";

const row = (id: string, likes: number) => ({ id, pipeline_tag: "fill-mask", library_name: "transformers", likes, downloads: likes * 3, tags: ["transformers"], createdAt: "2024-01-01T00:00:00.000Z" });

describe.each(testDialects())("the listing without its in-memory index on $name", (dialect) => {
  let db: TestDatabase;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-listing-off-"));

  beforeAll(async () => {
    db = await dialect.create();
    const file = path.join(dir, "rows.jsonl");
    fs.writeFileSync(file, Array.from({ length: 60 }, (_, i) => JSON.stringify(row(`org${i % 3}/bert-${i}`, i))).join("\n") + "\n");
    await importPaths(db.handle, [file], { statsAsOf: "2024-07-11" });
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("builds the facet index alone and answers pages from the database", async () => {
    await startBackgroundWork(db.handle);
    const snap = await openSnapshot(db.handle);
    expect(snap.index).not.toBeNull();
    expect(snap.index!.listing).toBeNull();
    const filters = { ...emptyFilters(), search: "bert-1", author: "org1" };
    const page = { sort: "likes" as const, ascending: false, offset: 0, limit: 5 };
    const got = await search(snap, filters, { ...page, counts: "facets" });
    expect(got.plan).not.toBe("memory");
    expect(got.models.map((m) => m.id)).toEqual((await baselinePage(db.handle, filters, page)).map((m) => m.id));
    expect(got.count.exact).toBe(true);
  });
});

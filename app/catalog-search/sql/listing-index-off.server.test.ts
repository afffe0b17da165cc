import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUNT_CAP, emptyFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { newResultCache, openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { sqlPage } from "#app/catalog-search/sql/sql-listing.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { baselineCount } from "#tests/support/catalog-baseline.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/**
 * MODELYARD_LISTING_INDEX=0 gives back the listing index's memory (ADR 0027): the facet index is
 * built without ids and sort orders, and one plain query per view answers every page, with the
 * same rows. Its counts stop at COUNT_CAP and say so; the facet profiles still count exactly the
 * filter sets they hold.
 */

// getEnv() reads this on first use; nothing in this file has read it yet.
process.env["MODELYARD_LISTING_INDEX"] = "0";

const row = (id: string, likes: number) => ({
  id,
  pipeline_tag: likes % 2 === 0 ? "fill-mask" : "text-classification",
  library_name: "transformers",
  likes,
  downloads: likes * 3,
  tags: ["transformers"],
  createdAt: "2024-01-01T00:00:00.000Z",
});

/** More rows than the cap, so a broad view's count is a lower bound. */
const ROWS = COUNT_CAP + 60;

describe.each(testDialects())("the listing without its in-memory index on $name", (dialect) => {
  let db: TestDatabase;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-listing-off-"));

  beforeAll(async () => {
    db = await dialect.create();
    const file = path.join(dir, "rows.jsonl");
    fs.writeFileSync(file, Array.from({ length: ROWS }, (_, i) => JSON.stringify(row(`org${i % 3}/bert-${i}`, i))).join("\n") + "\n");
    await importPaths(db.handle, [file], { statsAsOf: "2024-07-11" });
  }, 120_000);

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
    expect(got.plan).toBe("sql");
    expect(got.models.map((m) => m.id)).toEqual((await sqlPage(db.handle, filters, page)).models.map((m) => m.id));
    expect(got.models.length).toBe(5);
    expect(got.count).toEqual({ value: await baselineCount(db.handle, filters), exact: true });
  });

  it("says a count past the cap is a lower bound, and so are its facets", async () => {
    await startBackgroundWork(db.handle);
    const snap = await openSnapshot(db.handle);
    const broad = { ...emptyFilters(), search: "bert" };
    expect(await baselineCount(db.handle, broad)).toBe(ROWS);
    for (const s of [snap, { ...snap, index: null, results: newResultCache() }]) {
      const got = await search(s, broad, { sort: "downloads", ascending: false, offset: 0, limit: 30, counts: "facets" });
      expect(got.count).toEqual({ value: COUNT_CAP + 1, exact: false });
      expect(got.facets.exact).toBe(false);
      expect(got.facets.total).toBe(COUNT_CAP);
      // Lower bounds: each at most the true count, together the rows they were taken from.
      const tasks = got.facets.tasks;
      expect(tasks.reduce((n, t) => n + t.count, 0)).toBe(COUNT_CAP);
      for (const t of tasks) expect(t.count).toBeLessThanOrEqual(await baselineCount(db.handle, { ...broad, pipelineTag: t.value }));
      const total = await search(s, broad, { sort: "downloads", ascending: false, offset: 0, limit: 0, counts: "total" });
      expect(total.count).toEqual({ value: COUNT_CAP + 1, exact: false });
    }
    // Filters the facet profiles hold are counted exactly, however many match.
    const task = { ...emptyFilters(), pipelineTag: "fill-mask" };
    const exact = await search(snap, task, { sort: "likes", ascending: false, offset: 0, limit: 30, counts: "facets" });
    expect(exact.count).toEqual({ value: ROWS / 2, exact: true });
    expect(exact.facets).toMatchObject({ exact: true, total: ROWS / 2 });
    // Without the index at all, the same count is capped, and says so.
    const cold = await search({ ...snap, index: null, results: newResultCache() }, { ...emptyFilters() }, { sort: "likes", ascending: false, offset: 0, limit: 0, counts: "total" });
    expect(cold.count).toEqual({ value: COUNT_CAP + 1, exact: false });
  });
});

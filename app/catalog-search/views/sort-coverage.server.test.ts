import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { type CatalogSnapshot, newResultCache, openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { sortCoverage } from "#app/catalog-search/views/sort-coverage.server.ts";
import { type CatalogModelSummary, hasKnownCounts } from "#app/catalog/model-record.ts";
import { SORT_KEYS, type SortKey } from "#app/catalog/sort-keys.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { bumpCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/**
 * The sort notes' counts agree with the listing itself: the matches a sort cannot rank are the
 * ones its pages put last (no trending score, no update or creation date, no counts), and the trending snapshot's date
 * is the one the scores were taken on.
 */

const F = (p: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...p });

// 40 snapshot rows with counts (so trending scores), every fourth with an update date; then 10 rows
// added later without counts, as provider-mapped models arrive.
const snapshotRow = (i: number) => ({
  id: `org${i % 2}/model-${String(i).padStart(2, "0")}`,
  pipeline_tag: i % 3 === 0 ? "fill-mask" : "text-generation",
  likes: i + 1,
  downloads: (i + 1) * 10,
  createdAt: "2024-01-01T00:00:00.000Z",
  ...(i % 4 === 0 ? { lastModified: `2024-0${1 + (i % 6)}-02T00:00:00.000Z` } : {}),
});
const laterRow = (i: number) => ({ id: `late/model-${i}`, pipeline_tag: i % 2 ? "text-generation" : "fill-mask" });

describe.each(testDialects())("sort coverage on $name", (dialect) => {
  let db: TestDatabase;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-sort-coverage-"));

  beforeAll(async () => {
    db = await dialect.create();
    const first = path.join(dir, "snapshot.jsonl");
    fs.writeFileSync(first, Array.from({ length: 40 }, (_, i) => JSON.stringify(snapshotRow(i))).join("\n") + "\n");
    await importPaths(db.handle, [first], { statsAsOf: "2024-07-11" });
    const later = path.join(dir, "later.jsonl");
    fs.writeFileSync(later, Array.from({ length: 10 }, (_, i) => JSON.stringify(laterRow(i))).join("\n") + "\n");
    await importPaths(db.handle, [later]);
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Where the listing's own order stops ranking: the first row without the sort's value. */
  async function rankedInListing(snap: CatalogSnapshot, filters: CatalogFilters, sort: SortKey): Promise<{ ranked: number; total: number }> {
    const all = await search(snap, filters, { sort, ascending: false, offset: 0, limit: 1_000, counts: "total" });
    const unranked: Record<SortKey, (m: CatalogModelSummary) => boolean> = {
      trending: (m) => m.trendingScore <= 0,
      created: (m) => m.createdAt === null,
      updated: (m) => m.lastModified === null,
      downloads: (m) => !hasKnownCounts(m),
      likes: (m) => !hasKnownCounts(m),
    };
    const ranked = all.models.findIndex(unranked[sort]);
    return { ranked: ranked < 0 ? all.models.length : ranked, total: all.models.length };
  }

  it("counts what the listing puts last, for the whole catalogue and for filtered views", async () => {
    await startBackgroundWork(db.handle);
    const snap = await openSnapshot(db.handle);
    for (const filters of [F({}), F({ pipelineTag: "fill-mask" }), F({ search: "model-1" }), F({ author: "late" }), F({ search: "no-such" })]) {
      for (const sort of SORT_KEYS) {
        const listed = await rankedInListing(snap, filters, sort);
        const coverage = await sortCoverage(snap, filters, sort, listed.total);
        expect(coverage, `${sort} ${JSON.stringify(filters)}`).not.toBeNull();
        expect(listed.total - (coverage?.unranked ?? 0), `${sort} ${JSON.stringify(filters)}`).toBe(listed.ranked);
        // Without an exact count the unranked side is counted directly, with the same answer.
        expect((await sortCoverage(snap, filters, sort, null))?.unranked).toBe(coverage?.unranked);
      }
    }
    expect((await sortCoverage(snap, F({}), "trending", 50))?.unranked).toBe(10);
    expect((await sortCoverage(snap, F({}), "updated", 50))?.unranked).toBe(40);
    // The rows added later have no creation date and no counts.
    expect((await sortCoverage(snap, F({}), "created", 50))?.unranked).toBe(10);
    expect((await sortCoverage(snap, F({}), "downloads", 50))?.unranked).toBe(10);
    expect((await sortCoverage(snap, F({ pipelineTag: "fill-mask" }), "likes", null))?.unranked).toBe(5);
  });

  it("names the snapshot of the trending scores, and no date for the other sorts", async () => {
    const snap = await openSnapshot(db.handle);
    expect((await sortCoverage(snap, F({}), "trending", 50))?.asOf).toEqual({ from: "2024-07-11", to: "2024-07-11" });
    expect((await sortCoverage(snap, F({}), "updated", 50))?.asOf).toBeNull();
    expect((await sortCoverage(snap, F({}), "downloads", 50))?.asOf).toBeNull();
  });

  it("names no snapshot when some scores come from live counts, before and after the index is built", async () => {
    await sql`update models set stats_as_of = null, trending_score = 1 where id = 'late/model-0'`.execute(db.handle.db);
    // As an import does with each batch: the index of the old generation no longer answers.
    await bumpCatalogueGeneration(db.handle.db);
    const before = await openSnapshot(db.handle);
    expect(before.index).toBeNull();
    expect((await sortCoverage(before, F({}), "trending", 50))?.asOf).toBeNull();
    await startBackgroundWork(db.handle);
    const after = { ...(await openSnapshot(db.handle)), results: newResultCache() };
    expect(after.index?.listing?.coverage.trending).toEqual({ rows: 50, unranked: 9, asOf: null });
    expect((await sortCoverage(after, F({}), "trending", 50))?.asOf).toBeNull();
  });
});

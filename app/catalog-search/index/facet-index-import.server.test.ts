import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import type { CatalogFacets } from "#app/catalog-search/facets.server.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { type CatalogSnapshot, newResultCache, openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { type IndexBuilt, onFacetIndexBuilt } from "#app/catalog-search/index/background.server.ts";
import { baselineCount } from "#tests/support/catalog-baseline.ts";
import { importItems } from "#app/import/importer.server.ts";
import type { SourceItem } from "#app/import/read-sources.server.ts";

/**
 * The facet index belongs to one catalogue generation: an import makes it unusable at once (the
 * database answers meanwhile) and the next warm-up builds the new one. SQLite and PostgreSQL.
 */

const F = (p: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...p });

async function* records(rows: Array<Record<string, unknown>>): AsyncGenerator<SourceItem> {
  let line = 0;
  for (const value of rows) yield { kind: "record", source: "test", line: ++line, value };
}

/** The count and facets a listing page shows. */
async function counted(snap: CatalogSnapshot, filters: CatalogFilters) {
  return search(snap, filters, { sort: "likes", ascending: false, offset: 0, limit: 0, counts: "facets" });
}
const facetsOf = async (snap: CatalogSnapshot, filters: CatalogFilters): Promise<CatalogFacets> => (await counted(snap, filters)).facets;

const model = (id: string, pipeline_tag: string, tags: string[]) => ({ id, pipeline_tag, library_name: "transformers", tags, downloads: 10, likes: 1 });

describe.each(testDialects())("facet index across imports on $name", (dialect) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await dialect.create();
    await importItems(db.handle, records([model("a/one", "text-generation", ["en", "conversational"]), model("b/two", "fill-mask", ["en"])]));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("counts a language that only the model card names, as the tag filter does", async () => {
    const h = db.handle;
    await importItems(h, records([{ ...model("d/four", "translation", ["translation"]), cardData: { language: ["de"] } }]));
    await startBackgroundWork(h);
    const snap = await openSnapshot(h);
    const de = F({ tags: ["de"] });
    expect(await baselineCount(h, de)).toBe(1);
    expect(snap.index).not.toBeNull();
    expect((await facetsOf(snap, de)).total).toBe(1);
    expect((await facetsOf(snap, F({}))).languages).toContainEqual({ value: "de", count: 1 });
    // The database path (no index) agrees.
    expect((await facetsOf({ ...snap, index: null, results: newResultCache() }, F({ pipelineTag: "translation" }))).languages).toEqual([{ value: "de", count: 1 }]);
  });

  it("is built by warm-up, dropped by an import and rebuilt with the new rows", async () => {
    const h = db.handle;
    await startBackgroundWork(h);
    const before = await openSnapshot(h);
    expect(before.index?.rows).toBe(3);
    expect((await facetsOf(before, F({ tags: ["en"] }))).total).toBe(2);

    // What `modelyard serve` logs as "Facet index rebuilt": once, for the new generation. The
    // first request after the import may already start the rebuild, so listen from here.
    const reports: IndexBuilt[] = [];
    const stop = onFacetIndexBuilt((e) => reports.push(e));
    await importItems(h, records([model("c/three", "text-generation", ["en", "fr"])]));
    // The old index no longer answers; the database does, and counts the new row.
    const during = await openSnapshot(h);
    expect(during.generation).toBeGreaterThan(before.generation);
    expect(during.index).toBeNull();
    expect((await counted(during, F({ pipelineTag: "text-generation" }))).count).toEqual({ value: 2, exact: true });

    await startBackgroundWork(h).finally(stop);
    const after = await openSnapshot(h);
    expect(after.index?.rows).toBe(4);
    expect(reports).toEqual([{ generation: after.generation, current: true, indexed: true, loaded: false, ms: expect.any(Number) as number }]);
    const fromIndex = await facetsOf(after, F({ tags: ["en"] }));
    expect(fromIndex.total).toBe(3);
    expect(fromIndex.languages).toEqual([
      { value: "en", count: 3 },
      { value: "fr", count: 1 },
    ]);
    expect(fromIndex.tasks).toEqual([
      { value: "text-generation", count: 2 },
      { value: "fill-mask", count: 1 },
    ]);
    expect((await facetsOf(after, F({}))).total).toBe(4);
  });
});

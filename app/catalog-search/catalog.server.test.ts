import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogFilters, type SortKey, emptyFilters, isUnfiltered } from "#app/catalog-search/listing-params.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { baselineCount, baselinePage, collectMatchIds, countAndFacets, countCatalog, listCatalogPage } from "#app/catalog-search/catalog.server.ts";
import {
  computeExactFacets,
  facetsForRids,
  facetsFromIndex,
  forgetFacetIndex,
  liveFacetsBaseline,
  warmCatalogueStats,
} from "#app/catalog-search/facets.server.ts";
import { listSpacesForModel, listSpaces, syncTaskSpaces, taskSpacesFromLibrary } from "#app/db/queries/spaces.server.ts";
import { importPaths } from "#app/import/importer.server.ts";

/**
 * The listing planner must return exactly what the straightforward query returns, whichever
 * strategy it picks. Runs on SQLite always, and on PostgreSQL when TEST_DATABASE_URL is set.
 */

const BUNDLED = path.resolve(import.meta.dirname, "..", "..", "catalogue", "hub-catalogue-2024-07-11.jsonl.gz");
const F = (p: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...p });


const FILTERS: CatalogFilters[] = [
  F({}),
  F({ search: "llama" }),
  F({ search: "LLAMA-3" }),
  F({ search: "zephyr-7b" }),
  F({ search: "Qwen/Qwen2-7B-Instruct" }),
  F({ search: "xx" }),
  F({ search: "100%_" }),
  F({ search: "no-such-thing-here" }),
  F({ pipelineTag: "text-generation" }),
  F({ pipelineTag: "text-generation", library: "transformers" }),
  F({ pipelineTag: "text-to-image", library: "diffusers", license: "openrail++" }),
  F({ search: "bert", pipelineTag: "fill-mask" }),
  F({ tags: ["en", "conversational"] }),
  F({ tags: ["gguf"], search: "7b" }),
  F({ provider: "together" }),
  F({ author: "google", sort: undefined } as Partial<CatalogFilters>),
  F({ paramsMin: 6e9, paramsMax: 9e9 }),
  F({ paramsMin: 128e9 }),
  F({ license: "mit", tags: ["fr"] }),
];

describe.each(testDialects())("catalogue queries on $name", (dialect) => {
  let db: TestDatabase;
  let h: DatabaseHandle;

  beforeAll(async () => {
    // A database of its own, created and dropped here (never the shared TEST_DATABASE_URL one).
    db = await dialect.create();
    h = db.handle;
    await importPaths(h, [BUNDLED], { statsAsOf: "2024-07-11" });
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  it("pages match the straightforward query for every filter, sort, direction and offset", async () => {
    const stats = await warmCatalogueStats(h);
    for (const f of FILTERS) {
      for (const sort of ["trending", "downloads", "likes", "created", "updated"] as SortKey[]) {
        for (const [ascending, offset] of [
          [false, 0],
          [false, 60],
          [true, 0],
        ] as const) {
          const page = { sort, ascending, offset, limit: 30 };
          const want = (await baselinePage(h, f, page)).map((m) => m.id);
          // With exact selectivities and without (before the first count), the answer is the same.
          for (const s of [stats, null]) {
            const got = await listCatalogPage(h, f, page, s);
            expect(got.models.map((m) => m.id), `${JSON.stringify(f)} ${sort} asc=${ascending} +${offset} (${got.plan})`).toEqual(want);
          }
        }
      }
    }
  });

  it("walks every match in order through keyset cursors", async () => {
    const stats = await warmCatalogueStats(h);
    for (const f of [F({ search: "llama" }), F({ pipelineTag: "text-generation" }), F({})]) {
      for (const sort of ["downloads", "created", "updated"] as SortKey[]) {
        const all = (await baselinePage(h, f, { sort, ascending: false, offset: 0, limit: 400 })).map((m) => m.id);
        const walked: string[] = [];
        let after = null;
        for (let i = 0; i < 10; i++) {
          const p = await listCatalogPage(h, f, { sort, ascending: false, offset: 0, limit: 40, after }, stats);
          walked.push(...p.models.map((m) => m.id));
          if (!p.next) break;
          after = p.next;
        }
        expect(walked, `${JSON.stringify(f)} ${sort}`).toEqual(all.slice(0, walked.length));
        expect(walked.length).toBe(Math.min(all.length, 400));
      }
    }
  });

  it("counts exactly up to the cap and facet counts agree with a live GROUP BY", async () => {
    const stats = await warmCatalogueStats(h);
    for (const f of FILTERS) {
      const exact = await baselineCount(h, f);
      const c = await countCatalog(h, f, stats);
      expect(c, JSON.stringify(f)).toEqual({ value: exact, exact: true });
      expect((await collectMatchIds(h, f, stats, 100)).length).toBe(Math.min(exact, 101));
      const { facets } = await countAndFacets(h, f, stats);
      const live = await liveFacetsBaseline(h, f);
      expect(facets.exact).toBe(true);
      expect(facets.total).toBe(exact);
      for (const k of ["tasks", "libraries", "licenses", "providers"] as const) {
        expect(facets[k], `${k} for ${JSON.stringify(f)}`).toEqual(live[k]);
      }
      // Free tags: the facet reads each model's own tags, the live count model_tags; bare tags agree.
      const liveTags = new Map([...live.tags, ...live.languages].map((t) => [t.value, t.count]));
      for (const t of [...facets.tags.slice(0, 20), ...facets.languages.slice(0, 10)]) expect(t.count, t.value).toBe(liveTags.get(t.value));
    }
  });

  it("the in-memory facet index counts exactly what the database counts", async () => {
    const stats = await warmCatalogueStats(h);
    const ids = await collectMatchIds(h, F({ search: "llama" }), stats, 3_000);
    const withIndex = { rids: await facetsForRids(h, ids, false), exact: await Promise.all(FILTERS.map((f) => facetsFromIndex(h, f))) };
    // The index answers every filter set here but those with a search or an author.
    expect(withIndex.exact.map((x) => x !== null)).toEqual(FILTERS.map((f) => !f.search && !f.author));
    forgetFacetIndex(h);
    try {
      expect(await facetsFromIndex(h, F({ pipelineTag: "text-generation" }))).toBeNull();
      expect(await facetsForRids(h, ids, false)).toEqual(withIndex.rids);
      for (const [i, f] of FILTERS.entries()) {
        const fromIndex = withIndex.exact[i];
        // The unfiltered count would rebuild the index; the test above checks it against GROUP BY.
        if (fromIndex && !isUnfiltered(f)) expect(fromIndex, JSON.stringify(f)).toEqual(await computeExactFacets(h, f));
      }
    } finally {
      await computeExactFacets(h, F({})); // rebuilds the index for the tests that follow
    }
  });

  it("records the task guides' Spaces once, idempotently, and links models to theirs", async () => {
    const first = await syncTaskSpaces(h.db);
    const again = await syncTaskSpaces(h.db);
    expect(again.changed).toBe(false);
    expect(first.spaces).toBe(taskSpacesFromLibrary().length);
    const some = taskSpacesFromLibrary()[0]!;
    const listed = await listSpaces(h.db, { search: some.id, offset: 0, limit: 10 });
    expect(listed.spaces.map((s) => s.id)).toContain(some.id);
    expect(listed.spaces.find((s) => s.id === some.id)!.tasks).toContain(some.task);
    const byTask = await listSpaces(h.db, { task: some.task, offset: 0, limit: 100 });
    expect(byTask.spaces.every((s) => s.tasks.includes(some.task))).toBe(true);
    // A model the bundled records link to Spaces.
    const linked = await listSpaces(h.db, { offset: 0, limit: 1 });
    const space = linked.spaces[0]!;
    expect(space.modelCount).toBeGreaterThan(0);
    expect(await listSpacesForModel(h.db, space.models[0]!)).toContain(space.id);
  });
});

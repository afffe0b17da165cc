import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { countAndFacets, countCatalog } from "#app/catalog-search/counts.server.ts";
import { computeExactFacets, facetsForRids, facetsFromIndex } from "#app/catalog-search/facets.server.ts";
import { collectMatchIds, listCatalogPage, rowsByRid } from "#app/catalog-search/planner.server.ts";
import { type SearchResult, search } from "#app/catalog-search/search.server.ts";
import type { Cursor } from "#app/catalog-search/sql.server.ts";
import { type CatalogSnapshot, newMemos, openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { baselineCount, baselinePage, liveFacetsBaseline } from "#tests/support/catalog-baseline.ts";
import { listSpacesForModel, listSpaces, syncTaskSpaces, taskSpacesFromLibrary } from "#app/db/queries/spaces.server.ts";
import { importPaths } from "#app/import/importer.server.ts";

/**
 * The listing planner must return exactly what the straightforward query returns, whichever
 * strategy it picks (tests/support/catalog-baseline.ts). Runs on SQLite always, and on PostgreSQL
 * when TEST_DATABASE_URL is set.
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
  F({ search: "whisper large" }),
  F({ search: "instruct llama 3" }),
  F({ search: "qwen  INSTRUCT", pipelineTag: "text-generation" }),
  F({ pipelineTag: "text-generation" }),
  F({ pipelineTag: "text-generation", tags: ["transformers"] }),
  F({ pipelineTag: "text-to-image", tags: ["diffusers"], license: "openrail++" }),
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
  /** A snapshot with the statistics and facet index warm. */
  const warm = async (): Promise<CatalogSnapshot> => {
    await startBackgroundWork(h);
    return openSnapshot(h);
  };

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
    const snap = await warm();
    // Before the first count: no statistics, no facet index, nothing remembered.
    const cold: CatalogSnapshot = { ...snap, stats: null, index: null };
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
          for (const s of [snap, cold]) {
            const got = await listCatalogPage(s, f, page);
            expect(got.models.map((m) => m.id), `${JSON.stringify(f)} ${sort} asc=${ascending} +${offset} (${got.plan})`).toEqual(want);
          }
        }
      }
    }
  });

  it("answers pages from the in-memory index where it can, and from the database where it cannot", async () => {
    const snap = await warm();
    expect(snap.index?.listing).toBeTruthy();
    const cases: Array<[CatalogFilters, string]> = [
      [F({ search: "llama", author: "meta-llama" }), "memory"],
      [F({ search: "LLAMA-3", tags: ["conversational"] }), "memory"],
      [F({ author: "google", pipelineTag: "fill-mask" }), "memory"],
      [F({ license: "mit", tags: ["fr"] }), "memory"],
      [F({ search: "100%_" }), "memory"],
      // A search the id text cannot answer (non-ASCII), a prefixed tag and a size range inside a bucket.
      [F({ search: "llamaß" }), "database"],
      [F({ tags: ["base_model:meta-llama/Meta-Llama-3-8B"] }), "database"],
      [F({ paramsMin: 7e9, paramsMax: 9e9 }), "database"],
      [F({ paramsMin: 6e9, paramsMax: 9e9 }), "memory"],
    ];
    for (const [f, where] of cases) {
      for (const [sort, ascending, offset] of [
        ["likes", false, 0],
        ["created", true, 30],
        ["updated", false, 5],
      ] as const) {
        const page = { sort, ascending, offset, limit: 30 };
        const got = await listCatalogPage(snap, f, page);
        const viaSearch = await search({ ...snap, memos: newMemos() }, f, { ...page, counts: "facets" });
        expect(viaSearch.plan === "memory" ? "memory" : "database", JSON.stringify(f)).toBe(where);
        const want = (await baselinePage(h, f, page)).map((m) => m.id);
        expect(viaSearch.models.map((m) => m.id), `${JSON.stringify(f)} ${sort} asc=${ascending} +${offset}`).toEqual(want);
        expect(got.models.map((m) => m.id)).toEqual(want);
        expect(viaSearch.count).toEqual({ value: await baselineCount(h, f), exact: true });
      }
    }
  });

  it("walks a sort order over a search's rows to the same page as the database, however many match", async () => {
    const snap = await warm();
    const index = snap.index!;
    const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
    // pageFromMemory hands small match sets to the database; the walk is checked here on its own.
    for (const f of [F({ search: "llama" }), F({ search: "bert", license: "apache-2.0" }), F({ search: "-7b", tags: ["conversational"] })]) {
      const candidates = await index.listing!.ids.find(f.search!, pause);
      expect(candidates).not.toBeNull();
      const match = { profiles: index.profileMask(f)!, candidates };
      for (const [sort, ascending, offset] of [
        ["downloads", false, 0],
        ["created", true, 7],
        ["trending", false, 40],
      ] as const) {
        const page = { sort, ascending, offset, limit: 30 };
        const rids = await index.page(index.listing!.orders[sort], ascending, match, offset, 30, pause);
        const got = (await rowsByRid(h, rids, sort)).models.map((m) => m.id);
        expect(got, `${JSON.stringify(f)} ${sort} asc=${ascending} +${offset}`).toEqual((await baselinePage(h, f, page)).map((m) => m.id));
      }
    }
  });

  it("plans tags the statistics do not list from the facet index, with the same pages", async () => {
    const snap = await warm();
    expect(snap.index).not.toBeNull();
    // Tags past the statistics' top list: the planner counts them from the facet index.
    const listed = new Set(snap.stats!.tags.map((t) => t.value));
    const r = await h.db.selectFrom("model_tags").select("tag").where("tag", "not like", "%:%").groupBy("tag").execute();
    const unlisted = r.map((x) => x.tag).filter((t) => !listed.has(t)).slice(0, 4);
    expect(unlisted.length).toBeGreaterThan(0);
    for (const tag of unlisted) {
      for (const f of [F({ tags: [tag] }), F({ tags: [tag], pipelineTag: "text-generation" })]) {
        for (const sort of ["likes", "created"] as SortKey[]) {
          const page = { sort, ascending: false, offset: 0, limit: 30 };
          const got = await listCatalogPage(snap, f, page);
          expect(got.models.map((m) => m.id), `${JSON.stringify(f)} ${sort} (${got.plan})`).toEqual((await baselinePage(h, f, page)).map((m) => m.id));
        }
      }
    }
  });

  it("walks every match in order through keyset cursors", async () => {
    const snap = await warm();
    for (const f of [F({ search: "llama" }), F({ pipelineTag: "text-generation" }), F({})]) {
      for (const sort of ["downloads", "created", "updated"] as SortKey[]) {
        const all = (await baselinePage(h, f, { sort, ascending: false, offset: 0, limit: 400 })).map((m) => m.id);
        const walked: string[] = [];
        let after: Cursor | null = null;
        for (let i = 0; i < 10; i++) {
          const p: SearchResult<"none"> = await search(snap, f, { sort, ascending: false, offset: 0, limit: 40, after, counts: "none" });
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
    const snap = await warm();
    for (const f of FILTERS) {
      const exact = await baselineCount(h, f);
      const c = await countCatalog(snap, f);
      expect(c, JSON.stringify(f)).toEqual({ value: exact, exact: true });
      expect((await collectMatchIds(snap, f, 100)).length).toBe(Math.min(exact, 101));
      const { facets } = await countAndFacets(snap, f);
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
    const snap = await warm();
    expect(snap.index).not.toBeNull();
    const ids = await collectMatchIds(snap, F({ search: "llama" }), 3_000);
    const withIndex = { rids: await facetsForRids(snap, ids, false), exact: await Promise.all(FILTERS.map((f) => facetsFromIndex(snap, f))) };
    // The index answers every filter set here but those with a search or an author.
    expect(withIndex.exact.map((x) => x !== null)).toEqual(FILTERS.map((f) => !f.search && !f.author));
    const database: CatalogSnapshot = { ...snap, index: null };
    expect(await facetsFromIndex(database, F({ pipelineTag: "text-generation" }))).toBeNull();
    expect(await facetsForRids(database, ids, false)).toEqual(withIndex.rids);
    for (const [i, f] of FILTERS.entries()) {
      const fromIndex = withIndex.exact[i];
      if (fromIndex) expect(fromIndex, JSON.stringify(f)).toEqual(await computeExactFacets(database, f));
    }
  });

  it("one search answers the listing page: the page, its count and its facets", async () => {
    const snap = await warm();
    const f = F({ search: "llama", pipelineTag: "text-generation" });
    const page = { sort: "downloads" as const, ascending: false, offset: 0, limit: 30 };
    const listing = await search(snap, f, { ...page, counts: "facets" });
    expect(listing.models.map((m) => m.id)).toEqual((await baselinePage(h, f, page)).map((m) => m.id));
    expect(listing.count).toEqual({ value: await baselineCount(h, f), exact: true });
    expect(listing.facets.total).toBe(listing.count.value);
    const total = await search(snap, F({ author: "google" }), { ...page, limit: 0, counts: "total" });
    expect(total).toMatchObject({ models: [], next: null, facets: null, count: { value: await baselineCount(h, F({ author: "google" })), exact: true } });
    const api = await search(snap, f, { ...page, counts: "none" });
    expect(api).toMatchObject({ count: null, facets: null });
  });

  it("a search of several words finds every id holding each word, in any order, from memory and from SQL", async () => {
    const snap = await warm();
    const all = (await h.db.selectFrom("models").select("id").execute()).map((r) => r.id.toLowerCase());
    for (const term of ["whisper large", "large whisper", "llama 3.3 instruct", "qwen2.5 coder instruct", "gguf q4 8b"]) {
      const words = term.split(" ");
      const expected = all.filter((id) => words.every((w) => id.includes(w))).sort();
      expect(expected.length, term).toBeGreaterThan(0);
      const page = { sort: "downloads" as const, ascending: false, offset: 0, limit: 500 };
      for (const s of [snap, { ...snap, index: null, memos: newMemos() }]) {
        const found = await search(s, F({ search: term }), { ...page, counts: "total" });
        expect(found.models.map((m) => m.id.toLowerCase()).sort(), `${term} (${s.index ? "memory" : "sql"})`).toEqual(expected);
        expect(found.count?.value, term).toBe(expected.length);
      }
    }
    const whisper = await search(snap, F({ search: "whisper large" }), { sort: "downloads", ascending: false, offset: 0, limit: 10, counts: "none" });
    expect(whisper.models.map((m) => m.id)).toContain("openai/whisper-large-v3");
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

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { facetsForRids } from "#app/catalog-search/facets.server.ts";
import { rowsByRid, sqlCount, sqlCounted, sqlPage } from "#app/catalog-search/sql/sql-listing.server.ts";
import { type SearchResult, search } from "#app/catalog-search/search.server.ts";
import type { Cursor } from "#app/catalog-search/sql/sql.server.ts";
import { type CatalogSnapshot, newResultCache, openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { baselineCount, liveFacetsBaseline } from "#tests/support/catalog-baseline.ts";
import { listSpacesForModel, listSpaces, syncTaskSpaces, taskSpacesFromLibrary } from "#app/db/queries/spaces.server.ts";
import { importPaths } from "#app/import/importer.server.ts";

/**
 * The in-memory index answers every listing page, count and facet, and must return exactly what
 * the plain SQL query returns (app/catalog-search/sql/sql-listing.server.ts, which answers while the
 * index is not built): the same ids in the same order, and counts and facets equal to an uncapped
 * COUNT(*) and a live GROUP BY (tests/support/catalog-baseline.ts). Runs on SQLite always, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
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
  F({ search: "q" }),
  F({ search: "7b", pipelineTag: "text-generation" }),
  F({ search: "100%_" }),
  F({ search: "no-such-thing-here" }),
  F({ search: "llamaß" }),
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
  F({ author: "google" }),
  F({ author: "google", pipelineTag: "fill-mask" }),
  F({ search: "llama", author: "meta-llama" }),
  F({ paramsMin: 6e9, paramsMax: 9e9 }),
  F({ paramsMin: 7e9, paramsMax: 9e9 }),
  F({ paramsMin: 1.5e9, tags: ["conversational"] }),
  F({ paramsMin: 128e9 }),
  F({ license: "mit", tags: ["fr"] }),
  F({ tags: ["base_model:meta-llama/Meta-Llama-3-8B"] }),
  F({ tags: ["license:apache-2.0", "en"] }),
  F({ tags: ["dataset:wikipedia"], search: "bert" }),
  F({ tags: ["arxiv:2101.00027"], pipelineTag: "text-generation", author: "EleutherAI" }),
];

const SORTS: SortKey[] = ["trending", "downloads", "likes", "created", "updated"];

describe.each(testDialects())("catalogue queries on $name", (dialect) => {
  let db: TestDatabase;
  let h: DatabaseHandle;
  /** A snapshot with the facet index built, answering from memory. */
  const warm = async (): Promise<CatalogSnapshot> => {
    await startBackgroundWork(h);
    const snap = await openSnapshot(h);
    expect(snap.index?.listing).toBeTruthy();
    return snap;
  };
  /** The same generation before its index is built: the plain queries answer, nothing remembered. */
  const cold = (snap: CatalogSnapshot): CatalogSnapshot => ({ ...snap, index: null, results: newResultCache() });
  const ids = (r: { models: Array<{ id: string }> }) => r.models.map((m) => m.id);

  beforeAll(async () => {
    // A database of its own, created and dropped here (never the shared TEST_DATABASE_URL one).
    db = await dialect.create();
    h = db.handle;
    await importPaths(h, [BUNDLED], { statsAsOf: "2024-07-11" });
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  it("answers every page from memory with the plain query's rows, for every filter, sort, direction and offset", async () => {
    const snap = await warm();
    let nonEmpty = 0;
    for (const f of FILTERS) {
      for (const sort of SORTS) {
        for (const [ascending, offset] of [
          [false, 0],
          [false, 60],
          [true, 0],
        ] as const) {
          const page = { sort, ascending, offset, limit: 30 };
          const want = ids(await sqlPage(h, f, page));
          if (want.length > 0) nonEmpty++;
          const label = `${JSON.stringify(f)} ${sort} asc=${ascending} +${offset}`;
          const memory = await search({ ...snap, results: newResultCache() }, f, { ...page, counts: "none" });
          expect(memory.plan, label).toBe("memory");
          expect(ids(memory), label).toEqual(want);
          const plain = await search(cold(snap), f, { ...page, counts: "none" });
          expect(plain.plan, label).toBe("sql");
          expect(ids(plain), label).toEqual(want);
        }
      }
    }
    // The spread is worth something only if most of it finds rows.
    expect(nonEmpty).toBeGreaterThan(FILTERS.length * SORTS.length * 2);
  });

  it("counts exactly from memory, with facets equal to a live GROUP BY; the plain count is exact below the cap", async () => {
    const snap = await warm();
    for (const f of FILTERS) {
      const label = JSON.stringify(f);
      const exact = await baselineCount(h, f);
      // Every case finds rows but those meant to find none (the bundled catalogue has no model of 128B or more).
      const none = ["no-such-thing-here", "llamaß", "100%_"].includes(f.search ?? "") || f.paramsMin === 128e9;
      if (!none) expect(exact, label).toBeGreaterThan(0);
      const live = await liveFacetsBaseline(h, f);
      const fresh = { ...snap, results: newResultCache() };
      const total = await search(fresh, f, { sort: "likes", ascending: false, offset: 0, limit: 0, counts: "total" });
      expect(total.count, label).toEqual({ value: exact, exact: true });
      for (const s of [fresh, cold(snap)]) {
        const { count, facets } = await search(s, f, { sort: "likes", ascending: false, offset: 0, limit: 30, counts: "facets" });
        const where = `${label} (${s.index ? "memory" : "sql"})`;
        // The bundled catalogue (5,240 rows) is under the cap: the plain count is exact too.
        expect(count, where).toEqual({ value: exact, exact: true });
        expect(facets.exact, where).toBe(true);
        expect(facets.total, where).toBe(exact);
        for (const k of ["tasks", "libraries", "licenses", "providers", "params"] as const) expect(facets[k], `${k} for ${where}`).toEqual(live[k]);
        // Free tags: the facet reads each model's own tags, the live count model_tags; bare tags agree.
        const liveTags = new Map([...live.tags, ...live.languages].map((t) => [t.value, t.count]));
        for (const t of [...facets.tags.slice(0, 20), ...facets.languages.slice(0, 10)]) expect(t.count, `${t.value} for ${where}`).toBe(liveTags.get(t.value));
      }
      expect(await sqlCount(cold(snap), f, false), label).toEqual({ value: exact, exact: true });
      expect((await sqlCounted(cold(snap), f, false)).count, label).toEqual({ value: exact, exact: true });
    }
  });

  it("walks a sort order over a search's rows to the same page as the database, however many match", async () => {
    const snap = await warm();
    const index = snap.index!;
    const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
    // Small match sets are sorted by the database; the walk is checked here on its own.
    for (const f of [F({ search: "llama" }), F({ search: "bert", license: "apache-2.0" }), F({ search: "-7b", tags: ["conversational"] })]) {
      const candidates = await index.listing!.ids.find(f.search!, pause);
      const match = { profiles: index.profileMask({ ...f, search: null })!, candidates };
      for (const [sort, ascending, offset] of [
        ["downloads", false, 0],
        ["created", true, 7],
        ["trending", false, 40],
      ] as const) {
        const page = { sort, ascending, offset, limit: 30 };
        const rids = await index.page(index.listing!.orders[sort], ascending, match, offset, 30, pause);
        const got = ids(await rowsByRid(h, rids, sort));
        expect(got, `${JSON.stringify(f)} ${sort} asc=${ascending} +${offset}`).toEqual(ids(await sqlPage(h, f, page)));
      }
    }
  });

  it("answers rare tags from memory with the plain query's pages", async () => {
    const snap = await warm();
    const r = await h.db.selectFrom("model_tags").select(["tag"]).select((e) => e.fn.countAll().as("n")).where("tag", "not like", "%:%").groupBy("tag").execute();
    const rare = r.filter((x) => Number(x.n) <= 3).map((x) => x.tag).slice(0, 4);
    expect(rare.length).toBeGreaterThan(0);
    for (const tag of rare) {
      for (const f of [F({ tags: [tag] }), F({ tags: [tag], pipelineTag: "text-generation" })]) {
        for (const sort of ["likes", "created"] as SortKey[]) {
          const page = { sort, ascending: false, offset: 0, limit: 30 };
          const got = await search(snap, f, { ...page, counts: "total" });
          expect(got.plan).toBe("memory");
          expect(ids(got), `${JSON.stringify(f)} ${sort}`).toEqual(ids(await sqlPage(h, f, page)));
          expect(got.count).toEqual({ value: await baselineCount(h, f), exact: true });
        }
      }
    }
  });

  it("walks every match in order through keyset cursors, from memory and in SQL", async () => {
    const snap = await warm();
    const cases = [F({ search: "llama" }), F({ pipelineTag: "text-generation" }), F({}), F({ tags: ["license:apache-2.0"] }), F({ search: "xx" }), F({ author: "google" })];
    for (const f of cases) {
      for (const [sort, ascending] of [
        ["downloads", false],
        ["created", false],
        ["updated", true],
        ["trending", false],
      ] as const) {
        const all = ids(await sqlPage(h, f, { sort, ascending, offset: 0, limit: 400 }));
        for (const s of [snap, cold(snap)]) {
          const walked: string[] = [];
          let after: Cursor | null = null;
          for (let i = 0; i < 10; i++) {
            const p: SearchResult<"none"> = await search(s, f, { sort, ascending, offset: 0, limit: 40, after, counts: "none" });
            expect(p.plan).toBe(s.index ? "memory" : "sql");
            walked.push(...ids(p));
            if (!p.next) break;
            after = p.next;
          }
          const label = `${JSON.stringify(f)} ${sort} asc=${ascending} (${s.index ? "memory" : "sql"})`;
          expect(walked, label).toEqual(all.slice(0, walked.length));
          expect(walked.length, label).toBe(Math.min(all.length, 400));
        }
      }
    }
  });

  it("resumes a cursor whose row has moved since its page was sent after the cursor's own sort value", async () => {
    const snap = await warm();
    const page = { sort: "downloads" as const, ascending: false, offset: 0, limit: 30 };
    const first = await search(snap, F({}), { ...page, counts: "none" });
    const at = first.next!;
    // The same row, as if its downloads had changed since: the rows after the old value follow.
    const moved: Cursor = { v: Number(at.v) + 1, rid: at.rid };
    const got = await search({ ...snap, results: newResultCache() }, F({}), { ...page, after: moved, counts: "none" });
    expect(ids(got)).toEqual(ids(await sqlPage(h, F({}), { ...page, after: moved })));
    expect(ids(got)).toContain(first.models.at(-1)!.id);
    // A row that no longer exists at all.
    const gone: Cursor = { v: at.v, rid: 999_999_999 };
    const after = await search({ ...snap, results: newResultCache() }, F({}), { ...page, after: gone, counts: "none" });
    expect(ids(after)).toEqual(ids(await sqlPage(h, F({}), { ...page, after: gone })));
  });

  it("counts the facets of a set of rows alike from the index and from the database", async () => {
    const snap = await warm();
    const rids = (await h.db.selectFrom("models").select("rid").where("id", "like", "%llama%").execute()).map((r) => Number(r.rid));
    expect(rids.length).toBeGreaterThan(100);
    expect(await facetsForRids({ ...snap, index: null }, rids, false)).toEqual(await facetsForRids(snap, rids, false));
  });

  it("one search answers the listing page: the page, its count and its facets", async () => {
    const snap = await warm();
    const f = F({ search: "llama", pipelineTag: "text-generation" });
    const page = { sort: "downloads" as const, ascending: false, offset: 0, limit: 30 };
    const listing = await search(snap, f, { ...page, counts: "facets" });
    expect(ids(listing)).toEqual(ids(await sqlPage(h, f, page)));
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
    for (const term of ["whisper large", "large whisper", "llama 3.3 instruct", "qwen2.5 coder instruct", "gguf q4 8b", "qwen 7b"]) {
      const words = term.split(" ");
      const expected = all.filter((id) => words.every((w) => id.includes(w))).sort();
      expect(expected.length, term).toBeGreaterThan(0);
      const page = { sort: "downloads" as const, ascending: false, offset: 0, limit: 500 };
      for (const s of [snap, cold(snap)]) {
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

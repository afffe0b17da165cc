import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hubListPage } from "#app/catalog-search/views/hub-list.server.ts";
import { HUB_LIST_PARAMETERS, ParamError, parseListParams } from "#app/catalog-search/views/hub-params.server.ts";
import { emptyFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { openSnapshot, startBackgroundWork } from "#app/catalog-search/snapshot.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/**
 * `GET /api/models` pages, and the listing's sorted pages under them, are kept per catalogue
 * generation: a repeat is the same answer, and an import that changes the data is seen by the next
 * request, never hidden behind a memo.
 */

const row = (id: string, likes: number) => ({ id, pipeline_tag: "text-classification", library_name: "transformers", likes, downloads: 10, tags: ["transformers"], createdAt: "2024-01-01T00:00:00.000Z" });

describe("the parameters /docs/api lists", () => {
  // A value each documented parameter refuses, and the name its 400 gives it.
  const refused: Record<string, { value: string; named?: string }> = {
    search: { value: "x".repeat(201) },
    author: { value: "two words" },
    pipeline_tag: { value: "not-a-task" },
    filter: { value: "a<b" },
    library: { value: "two words" },
    license: { value: "two words" },
    language: { value: "xx9" },
    inference_provider: { value: "together,groq" },
    sort: { value: "stars" },
    direction: { value: "2" },
    limit: { value: "1001" },
    full: { value: "maybe" },
    cardData: { value: "maybe" },
    config: { value: "maybe" },
    "expand[]": { value: "secrets", named: "expand" },
    cursor: { value: "not-a-cursor" },
  };

  it("are the ones the parser reads: each refuses a bad value with a 400 naming it", () => {
    expect(HUB_LIST_PARAMETERS.map((p) => p.name).sort()).toEqual(Object.keys(refused).sort());
    for (const { name } of HUB_LIST_PARAMETERS) {
      const bad = refused[name]!;
      let thrown: unknown = null;
      try {
        parseListParams(new URLSearchParams([[name, bad.value]]));
      } catch (e) {
        thrown = e;
      }
      expect(thrown, name).toBeInstanceOf(ParamError);
      expect((thrown as ParamError).parameter, name).toBe(bad.named ?? name);
    }
  });

  it("take the values the docs' examples use", () => {
    const p = parseListParams(new URLSearchParams("search=llama&sort=downloads&limit=5&expand[]=inferenceProviderMapping"));
    expect(p).toMatchObject({ sort: "downloads", limit: 5, ascending: false, expand: ["inferenceProviderMapping"] });
    expect(p.filters.search).toBe("llama");
  });
});

describe.each(testDialects())("Hub list pages on $name", (dialect) => {
  let db: TestDatabase;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-hub-list-"));
  const write = (name: string, rows: object[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    return file;
  };

  beforeAll(async () => {
    db = await dialect.create();
    await importPaths(db.handle, [write("first.jsonl", [row("acme/alpha", 5), row("acme/beta", 50), row("acme/gamma", 500)])], { statsAsOf: "2024-07-11" });
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ids = (body: Buffer) => (JSON.parse(body.toString("utf8")) as Array<{ id: string }>).map((m) => m.id);
  const params = parseListParams(new URLSearchParams("author=acme&sort=likes&limit=2"));

  it("answers a repeat from the memo, and an import's changes on the next request", async () => {
    const first = await hubListPage(await openSnapshot(db.handle), params);
    expect(ids(first.body)).toEqual(["acme/gamma", "acme/beta"]);
    expect(first.next).not.toBeNull();
    // The same generation: the very same answer object, not a second search.
    expect(await hubListPage(await openSnapshot(db.handle), params)).toBe(first);

    await importPaths(db.handle, [write("second.jsonl", [row("acme/alpha", 5_000)])], { statsAsOf: "2024-07-11" });
    const after = await hubListPage(await openSnapshot(db.handle), params);
    expect(ids(after.body)).toEqual(["acme/alpha", "acme/gamma"]);
  });

  it("keeps answers to different parameters apart", async () => {
    const snap = await openSnapshot(db.handle);
    const ascending = await hubListPage(snap, parseListParams(new URLSearchParams("author=acme&sort=likes&direction=1&limit=2")));
    const full = await hubListPage(snap, parseListParams(new URLSearchParams("author=acme&sort=likes&limit=2&full=true")));
    expect(ids(ascending.body)).toEqual(["acme/beta", "acme/gamma"]);
    expect(ids(full.body)).toEqual(["acme/alpha", "acme/gamma"]);
    expect(full.body).not.toBe((await hubListPage(snap, params)).body);
  });

  it("resumes at a cursor it issued, and refuses one whose sort value its sort's column cannot hold", async () => {
    const snap = await openSnapshot(db.handle);
    const first = await hubListPage(snap, params);
    expect(ids(first.body)).toEqual(["acme/alpha", "acme/gamma"]);
    const cursor = Buffer.from(JSON.stringify(first.next)).toString("base64url");
    const next = await hubListPage(snap, parseListParams(new URLSearchParams(`author=acme&sort=likes&limit=2&cursor=${cursor}`)));
    expect(ids(next.body)).toEqual(["acme/beta"]);
    const forged = (sort: string, v: unknown, rid = 1) => () =>
      parseListParams(new URLSearchParams(`sort=${sort}&cursor=${Buffer.from(JSON.stringify({ v, rid })).toString("base64url")}`));
    for (const bad of [forged("downloads", "abc"), forged("downloads", 1e300), forged("likes", 2 ** 40), forged("trendingScore", 1e300), forged("createdAt", 5), forged("likes", 3, 2 ** 40)]) {
      expect(bad).toThrow(ParamError);
    }
    for (const good of [forged("downloads", "12345"), forged("downloads", 7), forged("likes", 3), forged("trendingScore", 0.5), forged("lastModified", null), forged("createdAt", "2024-01-01")]) {
      expect(good().cursor).not.toBeNull();
    }
  });

  it("keeps a listing page's rows per generation, and shows an import's changes on the next request", async () => {
    const row2 = (id: string, likes: number) => ({ ...row(id, likes), pipeline_tag: "fill-mask" });
    await importPaths(db.handle, [write("zeta.jsonl", [row2("zeta/one", 1), row2("zeta/two", 2), row2("zeta/three", 3)])], { statsAsOf: "2024-07-11" });
    // From memory, as most pages are: the index of the new generation first.
    await startBackgroundWork(db.handle);
    const filters = { ...emptyFilters(), author: "zeta" };
    const page = { sort: "likes", ascending: false, offset: 0, limit: 2, counts: "facets" } as const;
    const first = await search(await openSnapshot(db.handle), filters, page);
    expect(first.models.map((m) => m.id)).toEqual(["zeta/three", "zeta/two"]);
    expect((await search(await openSnapshot(db.handle), filters, page)).models).toBe(first.models);
    // Another page of the same filters is its own entry.
    expect((await search(await openSnapshot(db.handle), filters, { ...page, offset: 2 })).models.map((m) => m.id)).toEqual(["zeta/one"]);

    await importPaths(db.handle, [write("zeta-2.jsonl", [row2("zeta/one", 100)])], { statsAsOf: "2024-07-11" });
    const after = await search(await openSnapshot(db.handle), filters, page);
    expect(after.models.map((m) => m.id)).toEqual(["zeta/one", "zeta/three"]);
    expect(after.count).toEqual({ value: 3, exact: true });
  });
});

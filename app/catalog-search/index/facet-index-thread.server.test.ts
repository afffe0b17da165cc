import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SORT_KEYS } from "#app/catalog/sort-keys.ts";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import { buildFacetIndexInThread } from "#app/catalog-search/index/facet-index-thread.server.ts";
import { readFacetIndex } from "#app/catalog-search/facets.server.ts";
import { loadIndexParts, saveIndexParts } from "#app/catalog-search/index/index-store.server.ts";
import type { FacetIndex } from "#app/catalog-search/index/facet-index.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { importItems } from "#app/import/importer.server.ts";
import type { SourceItem } from "#app/import/read-sources.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/**
 * The facet index built in a worker thread over its own connection (ADR 0032) must be the index
 * the event loop would have built: the same counts, pages and searches after its arrays were
 * transferred and its dictionaries made again, and so must the one loaded as saved with its
 * catalogue generation. SQLite and PostgreSQL.
 */

const F = (p: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...p });
const noPause = async () => undefined;

async function* records(rows: Array<Record<string, unknown>>): AsyncGenerator<SourceItem> {
  let line = 0;
  for (const value of rows) yield { kind: "record", source: "test", line: ++line, value };
}

const TASKS = ["text-generation", "fill-mask", "translation", "image-classification"];
const LIBRARIES = ["transformers", "gguf", "diffusers"];
const LICENSES = ["mit", "apache-2.0", "openrail"];

// Enough rows for several of the build's slices, with every facet varied.
const ROWS = Array.from({ length: 1_500 }, (_, i) => ({
  id: `org${i % 37}/Model-${i}${i % 5 === 0 ? "-GGUF" : ""}`,
  pipeline_tag: i % 11 === 0 ? undefined : TASKS[i % TASKS.length],
  library_name: i % 13 === 0 ? undefined : LIBRARIES[i % LIBRARIES.length],
  tags: ["en", `topic-${i % 50}`, ...(i % 3 === 0 ? ["conversational"] : []), `license:${LICENSES[i % LICENSES.length]}`],
  downloads: (i * 7919) % 10_000,
  likes: (i * 31) % 500,
  createdAt: new Date(Date.UTC(2023, 0, 1) + i * 3_600_000).toISOString(),
  lastModified: new Date(Date.UTC(2024, 0, 1) + ((i * 17) % 1_500) * 3_600_000).toISOString(),
  cardData: i % 7 === 0 ? { language: ["de", "fr"] } : undefined,
}));

const FILTERS: CatalogFilters[] = [
  F({}),
  F({ pipelineTag: "text-generation" }),
  F({ tags: ["gguf"], license: "mit" }),
  F({ tags: ["conversational", "en"] }),
  F({ tags: ["de"] }),
  F({ pipelineTag: "no-such-task" }),
];

async function pageOf(index: FacetIndex, filters: CatalogFilters, ascending: boolean, offset: number): Promise<number[]> {
  const profiles = index.profileMask(filters);
  if (!profiles || !index.listing) throw new Error("expected a listing index");
  return index.page(index.listing.orders.downloads, ascending, { profiles, candidates: null }, offset, 30, noPause);
}

describe.each(testDialects())("the facet index built in a worker thread on $name", (dialect) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await dialect.create();
    await importItems(db.handle, records(ROWS));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("equals the one built on the event loop, built and saved first, then loaded as saved (ADR 0045)", async () => {
    const h = db.handle;
    const generation = await getCatalogueGeneration(h.db);
    expect(h.reopenUrl).not.toBeNull();
    const here = await readFacetIndex(h, generation);
    if (!here) throw new Error("expected an index");
    const built = await buildFacetIndexInThread(h.reopenUrl!, generation);
    expect(built.loaded).toBe(false);
    await expectSameIndex(built.index, here, generation);
    const saves = await h.db.selectFrom("listing_index").select(["generation", "seq"]).execute();
    expect(saves.filter((r) => r.seq === 0).map((r) => Number(r.generation))).toEqual([generation]);
    expect(saves.length).toBeGreaterThan(1);

    const loaded = await buildFacetIndexInThread(h.reopenUrl!, generation);
    expect(loaded.loaded).toBe(true);
    await expectSameIndex(loaded.index, here, generation);
    // The ids come back as shared memory, so the search thread scans them (ADR 0033).
    const ids = loaded.index?.listing?.ids.toParts();
    expect(ids && [ids.text, ids.ends, ids.filter].every((a) => a.buffer instanceof SharedArrayBuffer)).toBe(true);
    // Loading leaves the save as it was.
    expect(await h.db.selectFrom("listing_index").select(["generation", "seq"]).execute()).toHaveLength(saves.length);
  });

  it("is built again, and the old save deleted, once an import makes a new generation", async () => {
    const h = db.handle;
    const old = await getCatalogueGeneration(h.db);
    await importItems(h, records([{ ...ROWS[0]!, id: "neworg/fresh-model", downloads: 5 }]));
    const generation = await getCatalogueGeneration(h.db);
    expect(generation).toBeGreaterThan(old);
    expect(await loadIndexParts(h.db, old, true)).not.toBeNull();
    const next = await buildFacetIndexInThread(h.reopenUrl!, generation);
    expect(next.loaded).toBe(false);
    expect(next.index?.rows).toBe(ROWS.length + 1);
    const headers = await h.db.selectFrom("listing_index").select("generation").where("seq", "=", 0).execute();
    expect(headers.map((r) => Number(r.generation))).toEqual([generation]);
    expect(await loadIndexParts(h.db, old, true)).toBeNull();
  });

  it("is not loaded from a save that lacks a chunk, or holds the wrong listing part", async () => {
    const h = db.handle;
    const generation = await getCatalogueGeneration(h.db);
    const parts = await loadIndexParts(h.db, generation, true);
    expect(parts).not.toBeNull();
    // Without the listing part (MODELYARD_LISTING_INDEX=0) a save with it is not what is wanted.
    expect(await loadIndexParts(h.db, generation, false)).toBeNull();
    const last = await h.db.selectFrom("listing_index").select(["build", "seq"]).where("generation", "=", generation).orderBy("seq", "desc").limit(1).executeTakeFirstOrThrow();
    await h.db.deleteFrom("listing_index").where("build", "=", last.build).where("seq", "=", last.seq).execute();
    expect(await loadIndexParts(h.db, generation, true)).toBeNull();
    const rebuilt = await buildFacetIndexInThread(h.reopenUrl!, generation);
    expect(rebuilt.loaded).toBe(false);
    expect(rebuilt.index?.rows).toBe(ROWS.length + 1);
    // The broken save was replaced by the rebuilt one, which the next start loads.
    expect((await buildFacetIndexInThread(h.reopenUrl!, generation)).loaded).toBe(true);
  });

  it("replaces a save of another layout with one it can load", async () => {
    const h = db.handle;
    const generation = await getCatalogueGeneration(h.db);
    const head = await h.db.selectFrom("listing_index").select(["build", "bytes"]).where("generation", "=", generation).where("seq", "=", 0).executeTakeFirstOrThrow();
    // As an older release saved it: the listing part without the sorts' coverage.
    const header = JSON.parse(Buffer.from(head.bytes).toString("utf8")) as { parts: { listing: Record<string, unknown> } };
    delete header.parts.listing["coverage"];
    await h.db.updateTable("listing_index").set({ bytes: Buffer.from(JSON.stringify(header)) }).where("build", "=", head.build).where("seq", "=", 0).execute();
    expect(await loadIndexParts(h.db, generation, true)).toBeNull();
    expect((await buildFacetIndexInThread(h.reopenUrl!, generation)).loaded).toBe(false);
    const again = await buildFacetIndexInThread(h.reopenUrl!, generation);
    expect(again.loaded).toBe(true);
    expect(again.index?.listing?.coverage.trending.rows).toBe(ROWS.length + 1);
    expect(await h.db.selectFrom("listing_index").select("build").distinct().execute()).toHaveLength(1);
  });
});

async function expectSameIndex(there: FacetIndex | null, here: FacetIndex, generation: number): Promise<void> {
  {
    if (!there) throw new Error("expected both indexes");
    expect(there.generation).toBe(generation);
    expect(there.rows).toBe(ROWS.length);
    expect(there.profiles).toBe(here.profiles);
    expect(there.bytes).toBe(here.bytes);
    for (const f of FILTERS) {
      expect(there.tallyFilters(f)).toEqual(here.tallyFilters(f));
      expect(there.countFilters(f)).toBe(here.countFilters(f));
      expect(await pageOf(there, f, false, 0)).toEqual(await pageOf(here, f, false, 0));
      expect(await pageOf(there, f, true, 45)).toEqual(await pageOf(here, f, true, 45));
    }
    expect(there.tallyRids([1, 2, 3, 500, 99_999])).toEqual(here.tallyRids([1, 2, 3, 500, 99_999]));
    for (const sort of SORT_KEYS) {
      expect(Array.from(there.listing!.orders[sort].head)).toEqual(Array.from(here.listing!.orders[sort].head));
      expect(Array.from(there.listing!.orders[sort].inHead)).toEqual(Array.from(here.listing!.orders[sort].inHead));
    }
    expect(there.listing!.coverage).toEqual(here.listing!.coverage);
    for (const term of ["gguf", "model-14", "ORG3/"]) {
      const a = await there.listing!.ids.find(term, noPause);
      const b = await here.listing!.ids.find(term, noPause);
      expect(a && Array.from(a).sort((x, y) => x - y)).toEqual(b && Array.from(b).sort((x, y) => x - y));
      expect(a?.length).toBeGreaterThan(0);
    }
  }
}

describe("the facet index thread, when it cannot build", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-index-thread-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("rejects for a SQLite file that is not there, and creates none", async () => {
    const file = path.join(dir, "gone", "catalogue.db");
    await expect(buildFacetIndexInThread(`sqlite:${file}`, 1)).rejects.toThrow(/facet index build failed: .*(directory does not exist|unable to open)/);
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});

describe.each(testDialects())("the saved listing index on $name", (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await dialect.create();
    await importItems(db.handle, records(ROWS.slice(0, 200)));
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("is kept once when two instances save the same generation, and not saved for a generation the catalogue has left", async () => {
    const h = db.handle;
    const generation = await getCatalogueGeneration(h.db);
    const index = await readFacetIndex(h, generation);
    if (!index) throw new Error("expected an index");
    // Two builds saved at once, as two instances would after the same import.
    const saved = await Promise.all([saveIndexParts(h.db, index.toParts().parts), saveIndexParts(h.db, (await readFacetIndex(h, generation))!.toParts().parts)]);
    // One of them is kept; which one, and whether the first saw the second, is a race.
    expect(saved).toContain(true);
    const builds = await h.db.selectFrom("listing_index").select("build").distinct().execute();
    expect(builds).toHaveLength(1);
    expect(await loadIndexParts(h.db, generation, true)).not.toBeNull();
    // A build of an older generation is not saved over the current one.
    await importItems(h, records([{ ...ROWS[0]!, id: "late/arrival" }]));
    expect(await saveIndexParts(h.db, (await readFacetIndex(h, generation))!.toParts().parts)).toBe(false);
    expect(await loadIndexParts(h.db, generation + 1, true)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { type CatalogFilters, emptyFilters } from "#app/catalog-search/listing-params.ts";
import { bucketsCovering, type FacetTally } from "#app/catalog-search/index/facet-index.server.ts";
import { bucketIndex, FacetIndexBuilder, type FacetSourceRow } from "#app/catalog-search/index/facet-index-builder.server.ts";

const F = (p: Partial<CatalogFilters>): CatalogFilters => ({ ...emptyFilters(), ...p });

// As in every Hub record, a row's library_name is among its tags (library=X filters as the tag X).
const ROWS: FacetSourceRow[] = [
  { rid: 1, pipeline_tag: "text-generation", library_name: "transformers", license: "mit", params: 7e9, tags: '["en","conversational","transformers","license:mit"]', providers: '["together"]', languages: '["en"]' },
  { rid: 2, pipeline_tag: "text-generation", library_name: "transformers", license: "mit", params: 7.5e9, tags: '["transformers","conversational","en"]', providers: '["together"]', languages: null },
  { rid: 3, pipeline_tag: "fill-mask", library_name: "transformers", license: null, params: null, tags: '["en","transformers","en"]', providers: "[]", languages: '["en","fr"]' },
  { rid: 5, pipeline_tag: null, library_name: "gguf", license: "apache-2.0", params: 130e9, tags: '["gguf","base_model:x/y"]', providers: "[]", languages: "[]" },
  { rid: 6, pipeline_tag: "text-generation", library_name: null, license: "mit", params: 2e9, tags: "[]", providers: '["groq","together"]', languages: null },
];

/** The same counts, straight from the rows: the reference the index must match. */
function reference(rows: FacetSourceRow[], keep: (r: FacetSourceRow) => boolean): FacetTally {
  const t: FacetTally = { total: 0, tasks: new Map(), libraries: new Map(), licenses: new Map(), params: new Map(), tags: new Map(), providers: new Map() };
  const add = (m: Map<string, number>, k: string | null) => k && m.set(k, (m.get(k) ?? 0) + 1);
  for (const r of rows.filter(keep)) {
    t.total++;
    add(t.tasks, r.pipeline_tag);
    add(t.libraries, r.library_name);
    add(t.licenses, r.license);
    const b = bucketIndex(r.params);
    if (b !== 0xff) add(t.params, ["0-1", "1-3", "3-6", "6-9", "9-12", "12-24", "24-32", "32-64", "64-128", "128-"][b]!);
    // model_tags' bare tags: the model's own plus its card's languages.
    const own = (JSON.parse(r.tags) as string[]).filter((tag) => !tag.includes(":"));
    for (const tag of new Set([...own, ...(r.languages ? (JSON.parse(r.languages) as string[]) : [])])) add(t.tags, tag);
    for (const p of JSON.parse(r.providers) as string[]) add(t.providers, p);
  }
  return t;
}

function build(rows: FacetSourceRow[]) {
  const b = new FacetIndexBuilder();
  // Order does not matter: rows arrive in slices.
  for (const r of [...rows].reverse()) b.add(r);
  const index = b.finish(7);
  if (!index) throw new Error("expected an index");
  return index;
}

describe("facet index", () => {
  it("finishes in slices to the same index as in one go (background builds yield between slices)", async () => {
    // Past two slice boundaries of rows and of profiles (20,000 distinct tags), with gaps in the ids.
    const rows: FacetSourceRow[] = Array.from({ length: 210_000 }, (_, i) => ({ ...ROWS[i % ROWS.length]!, rid: 10 + i * 2, tags: `["t${i % 20_000}"]` }));
    const fill = () => {
      const b = new FacetIndexBuilder();
      for (const r of rows) b.add(r);
      return b;
    };
    let pauses = 0;
    const sliced = await fill().finishInSlices(3, async () => void pauses++);
    const whole = fill().finish(3);
    expect(pauses).toBeGreaterThan(2);
    expect(sliced?.rows).toBe(rows.length);
    expect(sliced?.tallyFilters(F({}))).toEqual(whole?.tallyFilters(F({})));
    expect(sliced?.tallyRids([10, 11, 12, 420_008])).toEqual(whole?.tallyRids([10, 11, 12, 420_008]));
    expect(sliced?.profiles).toBeGreaterThan(16_000);
    let tallyPauses = 0;
    for (const filters of [F({}), F({ pipelineTag: "text-generation" }), F({ tags: ["t7"] })]) {
      expect(await sliced?.tallyFiltersInSlices(filters, async () => void tallyPauses++)).toEqual(whole?.tallyFilters(filters));
    }
    expect(tallyPauses).toBeGreaterThan(2);
  });

  it("shares one profile between rows that agree on every facet, tags in any order", () => {
    const index = build(ROWS);
    expect(index.rows).toBe(5);
    // rows 1 and 2: same task, library, licence, bucket (6–9B), tags and provider.
    expect(index.profiles).toBe(4);
    expect(index.generation).toBe(7);
  });

  it("tallies any set of row ids exactly, skipping ids with no row", () => {
    const index = build(ROWS);
    expect(index.tallyRids([1, 2, 3, 4, 99, -3])).toEqual(reference(ROWS, (r) => [1, 2, 3].includes(r.rid)));
    expect(index.tallyRids([])).toEqual(reference(ROWS, () => false));
  });

  it("answers filter sets without a search or author exactly", () => {
    const index = build(ROWS);
    const cases: Array<[CatalogFilters, (r: FacetSourceRow) => boolean]> = [
      [F({}), () => true],
      [F({ pipelineTag: "text-generation" }), (r) => r.pipeline_tag === "text-generation"],
      [F({ pipelineTag: "text-generation", license: "mit", tags: ["transformers"] }), (r) => r.rid === 1 || r.rid === 2],
      [F({ tags: ["en", "conversational"] }), (r) => r.rid === 1 || r.rid === 2],
      [F({ tags: ["en"] }), (r) => r.rid <= 3],
      // A language only the card names still counts (row 3).
      [F({ tags: ["fr"] }), (r) => r.rid === 3],
      [F({ provider: "together" }), (r) => r.providers.includes("together")],
      [F({ provider: "groq" }), (r) => r.rid === 6],
      [F({ paramsMin: 6e9, paramsMax: 9e9 }), (r) => r.rid === 1 || r.rid === 2],
      [F({ paramsMin: 1e9, paramsMax: 9e9 }), (r) => [1, 2, 6].includes(r.rid)],
      [F({ paramsMin: 128e9 }), (r) => r.rid === 5],
      [F({ pipelineTag: "no-such-task" }), () => false],
      [F({ tags: ["no-such-tag"] }), () => false],
    ];
    for (const [filters, keep] of cases) {
      expect(index.tallyFilters(filters), JSON.stringify(filters)).toEqual(reference(ROWS, keep));
      expect(index.countFilters(filters), JSON.stringify(filters)).toBe(ROWS.filter(keep).length);
    }
  });

  it("leaves to the database what profiles cannot answer", () => {
    const index = build(ROWS);
    expect(index.tallyFilters(F({ search: "llama" }))).toBeNull();
    expect(index.countFilters(F({ search: "llama" }))).toBeNull();
    expect(index.tallyFilters(F({ author: "google" }))).toBeNull();
    expect(index.tallyFilters(F({ tags: ["base_model:x/y"] }))).toBeNull();
    // 5B to 7B cuts through buckets.
    expect(index.tallyFilters(F({ paramsMin: 5e9, paramsMax: 7e9 }))).toBeNull();
  });

  it("declines row ids too sparse to address directly", () => {
    const b = new FacetIndexBuilder();
    b.add({ ...ROWS[0]!, rid: 1 });
    b.add({ ...ROWS[0]!, rid: 50_000_000 });
    expect(b.finish(1)).toBeNull();
  });

  it("maps size ranges to whole buckets only", () => {
    expect([...(bucketsCovering(0, 1e9) ?? [])]).toEqual([0]);
    expect([...(bucketsCovering(64e9, null) ?? [])]).toEqual([8, 9]);
    expect(bucketsCovering(2e9, 3e9)).toBeNull();
    expect(bucketIndex(null)).toBe(0xff);
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(128e9)).toBe(9);
  });

  it("walks a sort order kept without its tail exactly as the full order, from any start, both ways", async () => {
    // Row ids with gaps, past several counts of the tail (TAIL_STEP) and chunks of the walk.
    const rows: FacetSourceRow[] = Array.from({ length: 20_000 }, (_, i) => ({ ...ROWS[i % ROWS.length]!, rid: 3 + i + Math.floor(i / 7) }));
    const index = build(rows);
    const rids = rows.map((r) => r.rid);
    // A descending order that ends in a tie broken by row id: the rows with "no likes".
    const liked = rids.filter((rid) => rid % 5 === 0).sort((a, b) => (b * 7919) % 1000 - (a * 7919) % 1000 || a - b);
    const full = [...liked, ...rids.filter((rid) => rid % 5 !== 0)];
    const order = index.sortOrder(Uint32Array.from(full));
    expect(order.head.length).toBeLessThan(full.length / 4);
    const all = { profiles: index.profileMask(F({}))!, candidates: null };
    const noPause = async () => undefined;
    for (const ascending of [false, true]) {
      const expected = ascending ? [...full].reverse() : full;
      expect(await index.page(order, ascending, all, 0, full.length, noPause)).toEqual(expected);
      for (const start of [0, 1, liked.length - 1, liked.length, liked.length + 1, 4_095, 9_999, full.length - 1, full.length]) {
        expect(await index.page(order, ascending, all, 0, 40, noPause, start), `start ${start}`).toEqual(expected.slice(start, start + 40));
      }
      for (const at of [0, 17, liked.length - 1, liked.length, liked.length + 4_100, full.length - 1]) {
        expect(index.positionOf(order, expected[at]!, ascending), `at ${at}`).toBe(at);
      }
    }
    expect(index.positionOf(order, 4, false)).toBe(full.indexOf(4));
    expect(index.positionOf(order, 2, false)).toBeNull();
    // An order naming a row the index lacks leaves it out, and the walk still lists every row once.
    const stray = index.sortOrder(Uint32Array.from([999_999, ...full]));
    expect(await index.page(stray, false, all, 0, full.length + 1, noPause)).toEqual(full);
  });
});

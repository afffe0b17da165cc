import { describe, expect, it } from "vitest";
import { IdText, IdTextBuilder, isSearchableTerm } from "#app/catalog-search/index/id-search.server.ts";
import { findInThread } from "#app/catalog-search/index/id-search-thread.server.ts";
import { FILTER_BLOCK_ROWS, IdScan, candidateRanges } from "#app/catalog-search/index/id-scan.server.ts";
import { parseIds } from "#app/catalog-search/index/sort-order.server.ts";

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What SQLite's LIKE '%term%' (ASCII case folding) keeps, written the obvious way. */
const reference = (ids: string[], term: string) =>
  ids.flatMap((id, i) => (id.replace(/[A-Z]/g, (c) => c.toLowerCase()).includes(term.replace(/[A-Z]/g, (c) => c.toLowerCase())) ? [i + 1] : []));

describe("in-memory id search", () => {
  // Over 3 MB of ids, so scans cross the 2 MB slice boundary, with matches near it.
  const ids = Array.from({ length: 120_000 }, (_, i) => `org-${i % 977}/Model-${i}-${["Llama", "BERT", "qwen2", "tiny"][i % 4]}-v${i % 7}`);
  ids.push("ÉCOLE/Llama-ß", "acme/100%_done", "x/AbC");
  const builder = new IdTextBuilder();
  ids.forEach((id, i) => builder.add(i + 1, id));
  const text = builder.finish();

  it.each(["llama", "LLAMA", "bert-v3", "model-11999", "g-1/", "100%_", "abc", "-v6", "no-such-id", "ab", "Q", "1/", "%"])("finds every id containing %j, ASCII case folded", async (term) => {
    const got = await text.find(term, pause);
    expect([...got].sort((a, b) => a - b)).toEqual(reference(ids, term));
  });

  it("scans in the search thread when the ids are shared memory, with the same matches", async () => {
    const { text: bytes, ends, ridBase, filter } = text.toParts();
    expect(bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(filter.buffer).toBeInstanceOf(SharedArrayBuffer);
    for (const term of ["llama", "bert-v3", "g-1/", "no-such-id"]) {
      const got = await findInThread(bytes, ends, ridBase, filter, Buffer.from(term, "latin1"));
      expect(got).not.toBeNull();
      expect([...got!].sort((a, b) => a - b)).toEqual(reference(ids, term));
    }
  });

  it("keeps rows by row id, the ids of missing rows empty, and takes rows only in ascending order", async () => {
    const gappy = new IdTextBuilder();
    gappy.add(1_000, "a/llama-one");
    gappy.add(1_003, "b/Llama-two");
    gappy.add(1_200, "c/bert");
    const found = await gappy.finish().find("llama", pause);
    expect([...found].sort((a, b) => a - b)).toEqual([1_000, 1_003]);
    expect([...(await gappy.finish().find("bert", pause))]).toEqual([1_200]);
    expect(() => gappy.add(1_100, "d/late")).toThrow(/ascend/);
  });

  it("scans on its own thread, in slices, ids that are not shared memory", async () => {
    const { text: bytes, ends, ridBase, filter } = text.toParts();
    const plain = { text: bytes.slice(), ends: ends.slice(), ridBase, filter: filter.slice() };
    const copy = IdText.fromParts(plain);
    expect(findInThread(plain.text, plain.ends, plain.ridBase, plain.filter, Buffer.from("llama"))).toBeNull();
    let pauses = 0;
    const got = await copy.find("LLAMA", () => {
      pauses++;
      return pause();
    });
    expect([...got].sort((a, b) => a - b)).toEqual(reference(ids, "llama"));
    // Over 3 MB of ids in 2 MB slices: the scan let the event loop in between.
    expect(pauses).toBeGreaterThan(0);
  });

  it("finds any piece of any id, whichever blocks of the trigram filter it falls in", async () => {
    // Pieces of ids spread over the whole text, and of the ids at each block's edges.
    const picks = [0, 1, FILTER_BLOCK_ROWS - 1, FILTER_BLOCK_ROWS, 5_000, 77_777, ids.length - 4, ids.length - 1];
    for (const at of picks) {
      const id = ids[at]!;
      for (const [from, length] of [[0, 3], [id.length - 5, 5], [2, 9]] as const) {
        const term = id.slice(Math.max(0, from), Math.max(0, from) + length);
        if (!isSearchableTerm(term)) continue;
        const got = await text.find(term, pause);
        expect([...got].sort((a, b) => a - b), term).toEqual(reference(ids, term));
      }
    }
  });

  it("splits a scan into shares of whole rows that together find every match once, in row order", () => {
    const { text: bytes, ends, ridBase, filter } = text.toParts();
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const term of ["llama", "model-1199", "-v6", "no-such-id"]) {
      const needle = Buffer.from(term, "latin1");
      const ranges = candidateRanges(ends, filter, needle);
      const whole = new IdScan(buffer, ends, ridBase, needle);
      whole.ranges(ranges);
      for (const parts of [2, 3]) {
        const found = Array.from({ length: parts }, (_, part) => {
          const scan = new IdScan(buffer, ends, ridBase, needle);
          scan.ranges(candidateRanges(ends, filter, needle, part, parts));
          return [...scan.result()];
        });
        expect(found.flat(), `${term} in ${parts}`).toEqual([...whole.result()]);
        if (term === "llama") expect(found.every((f) => f.length > 0)).toBe(true);
      }
    }
  });

  it("scans only the blocks whose trigrams may hold the term", () => {
    const { text: bytes, ends, filter } = text.toParts();
    const bytesIn = (ranges: Array<[number, number]>) => ranges.reduce((sum, [from, to]) => sum + to - from, 0);
    // One id: its block (and any whose hashed trigrams collide with all of the term's).
    const one = candidateRanges(ends, filter, Buffer.from("model-77777-", "latin1"));
    expect(bytesIn(one)).toBeLessThan(bytes.length / 50);
    const row = 77_777;
    expect(one.some(([from, to]) => from < ends[row]! && ends[row]! <= to)).toBe(true);
    // No id holds it: nothing, or next to nothing, is scanned.
    expect(bytesIn(candidateRanges(ends, filter, Buffer.from("zzqxj", "latin1")))).toBeLessThan(bytes.length / 50);
    // A term in every block (the last holds three other ids): one range, from the first byte.
    const all = candidateRanges(ends, filter, Buffer.from("org-", "latin1"));
    expect(all).toHaveLength(1);
    expect(all[0]![0]).toBe(0);
    expect(all[0]![1]).toBeGreaterThanOrEqual(ends[ids.length - 4 - FILTER_BLOCK_ROWS]!);
  });

  it("scans every block for a term too short for the trigram filter, and finds no id for a term no id could hold", async () => {
    expect(isSearchableTerm("école")).toBe(false);
    expect(isSearchableTerm("ab")).toBe(false);
    // Short terms have no trigram: the thread and this thread scan every block.
    const { text: bytes, ends, filter } = text.toParts();
    for (const term of ["ab", "7", "g-"]) {
      const here = await text.findHere(Buffer.from(term, "latin1"), pause);
      expect([...here].sort((a, b) => a - b), term).toEqual(reference(ids, term));
      expect(candidateRanges(ends, filter, Buffer.from(term, "latin1"))).toEqual([[0, bytes.length]]);
    }
    // Model ids are printable ASCII (modelIdSchema, on import): a term with anything else matches
    // none, as LIKE finds none on either engine.
    expect(await text.find("ßab", pause)).toEqual(new Uint32Array(0));
    expect(await text.find("é", pause)).toEqual(new Uint32Array(0));
    expect(await text.find("", pause)).toEqual(new Uint32Array(0));
    // A non-ASCII letter never matches an ASCII one, as on both engines.
    expect(await text.find("cole/", pause)).toEqual(Uint32Array.from([ids.length - 2]));
  });

  it("parses an aggregate's id list, across slices", async () => {
    const many = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 1_000_003);
    expect([...(await parseIds(many.join(","), pause))]).toEqual(many);
    expect([...(await parseIds("", pause))]).toEqual([]);
    expect([...(await parseIds("42", pause))]).toEqual([42]);
  });
});

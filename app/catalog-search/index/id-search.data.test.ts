import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { IdTextBuilder, isSearchableTerm } from "#app/catalog-search/index/id-search.server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

// The in-memory id search over all 760k ids of ../shared/data/hub-models-2024-07-11.jsonl.gz,
// trigram filter and search thread included (ADR 0036), against a plain substring test of every
// id, for pieces of real ids: whole name words, and slices that cross '-', '/' and '.'.
describe("id search over the full Hub snapshot", async () => {
  const ids: string[] = [];
  const builder = new IdTextBuilder();
  const lines = readline.createInterface({ input: fs.createReadStream(path.join(sharedDataDir(), "hub-models-2024-07-11.jsonl.gz")).pipe(zlib.createGunzip()) });
  for await (const line of lines) {
    if (!line) continue;
    const { id } = JSON.parse(line) as { id: string };
    ids.push(id);
    builder.add(ids.length, id);
  }
  const text = builder.finish();
  const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const folded = ids.map(fold);
  const terms = new Set<string>(["llama", "gguf", "converted", "thenk", "instruct", "13b"]);
  // Every 7,919th id (a prime, so the picks spread over the whole dump): a word, and a slice.
  for (let i = 0; i < ids.length; i += 7_919) {
    const id = folded[i]!;
    const word = id.split(/[-_./]+/).find((w) => w.length >= 3);
    if (word) terms.add(word);
    const from = i % Math.max(1, id.length - 6);
    terms.add(id.slice(from, from + 3 + (i % 6)));
  }
  const searchable = [...terms].filter(isSearchableTerm);

  it(`finds exactly the ids holding each of ${searchable.length} pieces of real ids`, async () => {
    expect(ids.length).toBeGreaterThan(750_000);
    expect(searchable.length).toBeGreaterThan(150);
    for (const term of searchable) {
      const got = await text.find(term, () => Promise.resolve());
      const want = folded.flatMap((id, i) => (id.includes(fold(term)) ? [i + 1] : []));
      expect([...got].sort((a, b) => a - b), term).toEqual(want);
    }
  });
});

/**
 * In-memory id search over the 760k-row Hub snapshot: `npm run bench:id-search`.
 *
 * Builds the id text as the facet index does (IdTextBuilder) from
 * ../shared/data/hub-models-2024-07-11.jsonl.gz, then times the scan for words of real model
 * names (drawn as the mixed-traffic bench draws its searches) two ways in the same run: the whole
 * text, as the search did before the trigram filter (ADR 0036), and only the candidate blocks the
 * filter leaves. Checks both find the same rows. Prints figures only.
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { IdScan, candidateRanges } from "#app/catalog-search/index/id-scan.server.ts";
import { IdTextBuilder } from "#app/catalog-search/index/id-search.server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";
import { rng, sampleRows, searchWords } from "./catalog-mixed.ts";
import { percentile } from "./percentile.ts";

const DATA = path.join(sharedDataDir(), "hub-models-2024-07-11.jsonl.gz");
const TERMS = 200;
const ROUNDS = 3;

const builder = new IdTextBuilder();
let rows = 0;
const started = performance.now();
for await (const line of readline.createInterface({ input: fs.createReadStream(DATA).pipe(zlib.createGunzip()), crlfDelay: Infinity })) {
  if (!line) continue;
  builder.add(++rows, (JSON.parse(line) as { id: string }).id);
}
const built = performance.now();
const text = builder.finish();
const { text: bytes, ends, ridBase, filter } = text.toParts();
const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
console.log(`${rows.toLocaleString("en-US")} ids, ${(bytes.byteLength / 2 ** 20).toFixed(1)} MB of text, ${(filter.byteLength / 2 ** 20).toFixed(1)} MB of trigram filter; read and built in ${((built - started) / 1000).toFixed(1)} s`);

// A uniform sample of names, so common words come up as often as visitors would type them.
const { sample } = await sampleRows(DATA, TERMS, rng(14));
const names = sample.map((r) => (r.id.includes("/") ? r.id.slice(r.id.indexOf("/") + 1) : r.id));
const terms = [...new Set(names.flatMap((n) => searchWords(n).slice(0, 1)))];
const whole: number[] = [];
const filtered: number[] = [];
let scanned = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const term of terms) {
    const needle = Buffer.from(term, "latin1");
    let t = performance.now();
    const a = new IdScan(buffer, ends, ridBase, needle);
    a.window(0, buffer.length);
    whole.push(performance.now() - t);
    t = performance.now();
    const b = new IdScan(buffer, ends, ridBase, needle);
    const ranges = candidateRanges(ends, filter, needle);
    b.ranges(ranges);
    filtered.push(performance.now() - t);
    if (round === 0) scanned += ranges.reduce((sum, [from, to]) => sum + to - from, 0) / buffer.length;
    const [x, y] = [a.result(), b.result()];
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) throw new Error(`the filtered scan for '${term}' found other rows than the whole scan`);
  }
}

const row = (label: string, xs: number[]) =>
  `| ${label} | ${percentile(xs, 50).toFixed(2)} | ${percentile(xs, 95).toFixed(2)} | ${Math.max(...xs).toFixed(2)} | ${xs.reduce((s, x) => s + x, 0).toFixed(0)} |`;
console.log(`\n${terms.length} search words from ${TERMS} sampled names, ${ROUNDS} rounds; the filter left ${((100 * scanned) / terms.length).toFixed(0)}% of the text to scan on average.\n`);
console.log("| scan | p50 ms | p95 ms | max ms | total ms |");
console.log("|---|---:|---:|---:|---:|");
console.log(row("whole text (before)", whole));
console.log(row("candidate blocks (trigram filter)", filtered));

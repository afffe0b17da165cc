/**
 * Markdown render times for the model page's card.
 *   npx tsx bench/markdown.ts [path/to/card.md]
 * Default card: ../shared/data/model-cards/bigscience__bloom.md. Prints figures only.
 * "first" is the first render in a fresh process (grammar compilation included); "cold" renders
 * a source not rendered before (the card with a comment of its own); "warm" is a cache hit, which is what a page view costs.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";
import { percentile } from "./percentile.ts";

const cardsDir = path.join(sharedDataDir(), "model-cards");
const cardPath = process.argv[2] ?? path.join(cardsDir, "bigscience__bloom.md");
const md = readFileSync(cardPath, "utf8");
const options = { resolveRelativeUrl: (p: string) => `/models/bigscience/bloom/resolve/main/${p}`, cacheKey: "bigscience/bloom@main" };

function summary(label: string, times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} n=${String(sorted.length).padStart(5)}  p50=${percentile(sorted, 50).toFixed(3)} ms  p95=${percentile(sorted, 95).toFixed(3)} ms  max=${(sorted[sorted.length - 1] ?? Number.NaN).toFixed(3)} ms`,
  );
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const first = await time(() => renderMarkdown(md, options));
console.log(`card ${path.basename(cardPath)} (${md.length} chars)`);
console.log(`first render (fresh process)      ${first.toFixed(1)} ms`);

const cold: number[] = [];
// Renders are kept by their source: a comment of its own makes each of these a first render.
const unseen = (source: string, i: number) => `${source}\n\n<!-- cold ${i} -->\n`;
for (let i = 0; i < 30; i++) cold.push(await time(() => renderMarkdown(unseen(md, i), options)));
summary("cold (a source not rendered before)", cold);

const warm: number[] = [];
for (let i = 0; i < 2000; i++) warm.push(await time(() => renderMarkdown(md, options)));
summary("warm (cache hit)", warm);

const files = readdirSync(cardsDir).filter((f) => f.endsWith(".md"));
const cards = files.map((f) => readFileSync(path.join(cardsDir, f), "utf8"));
const unseenCards = cards.map((card) => unseen(card, -1));
const allCold: number[] = [];
for (const card of unseenCards) allCold.push(await time(() => renderMarkdown(card)));
summary(`cold, all ${cards.length} real cards`, allCold);
const allWarm: number[] = [];
for (let round = 0; round < 20; round++) for (const card of unseenCards) allWarm.push(await time(() => renderMarkdown(card)));
summary(`warm, all ${cards.length} real cards`, allWarm);

/**
 * Shared set-up for the model page journeys: the real server on a temporary database (bundled
 * catalogue), plus cards imported with the real `modelyard import` command.
 */
import fs from "node:fs";
import path from "node:path";
import { openDatabase, type DatabaseHandle } from "#app/db/client.server.ts";
import { importWithCli } from "#tests/e2e/support/import-cli.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";


/** Runs `modelyard import <paths>` against the test server's database. */
export function importIntoServer(server: TestServer, ...paths: string[]): Promise<string> {
  return importWithCli(server.databaseUrl, paths);
}

export async function startModelPageServer(): Promise<{ server: TestServer; db: DatabaseHandle }> {
  const server = await startTestServer();
  return { server, db: openDatabase(server.databaseUrl) };
}

/**
 * Fetches each card's model page and lists what is wrong: not 200, no card, the escaped-source
 * fallback, front matter shown, headings without ids or permalinks, no title or og:title.
 */
export async function cardPageFailures(serverUrl: string, cardsDir: string, files: readonly string[]): Promise<string[]> {
  const failures: string[] = [];
  for (const file of files) {
    const id = file.replace(/\.md$/, "").replace("__", "/");
    const res = await fetch(`${serverUrl}/${id}`);
    const html = await res.text();
    if (res.status !== 200) {
      failures.push(`${id}: HTTP ${res.status}`);
      continue;
    }
    const card = html.slice(html.indexOf('id="model-card"'));
    if (!html.includes('id="model-card"')) failures.push(`${id}: no card`);
    if (card.includes("markdown-fallback")) failures.push(`${id}: fell back to source`);
    const source = fs.readFileSync(path.join(cardsDir, file), "utf8");
    const firstKey = /^---\r?\n([A-Za-z_]+):/.exec(source)?.[1];
    if (firstKey && new RegExp(`<p>${firstKey}:`).test(card)) failures.push(`${id}: front matter shown`);
    const headings = [...card.matchAll(/<h([1-6]) id="(md-[^"]+)"/g)].map((m) => m[2]!);
    const anchors = new Set([...card.matchAll(/class="heading-anchor" href="#(md-[^"]+)"/g)].map((m) => m[1]!));
    // Headings written inside links cannot carry a second link; everything else must.
    const unanchored = headings.filter((h) => !anchors.has(h));
    if (unanchored.length > 1) failures.push(`${id}: headings without anchors: ${unanchored.join(", ")}`);
    const mdHeadings = source.split("\n").filter((l) => /^#{1,6} \S/.test(l)).length;
    if (mdHeadings > 0 && headings.length === 0) failures.push(`${id}: ${mdHeadings} markdown headings, none rendered`);
    if (!/<title>[^<]*Modelyard<\/title>/.test(html)) failures.push(`${id}: no title`);
    if (!html.includes('<meta property="og:title"')) failures.push(`${id}: no og:title`);
  }
  return failures;
}

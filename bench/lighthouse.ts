/**
 * Lighthouse 12 scores for the task pages, printed as a table (goal: accessibility 100,
 * performance >= 95). Runs the mobile preset (Lighthouse's default: simulated slow 4G and a 4x
 * slower CPU) and the desktop preset.
 *
 *   DATABASE_URL=sqlite:/tmp/tasks-dev.db npx tsx bench/lighthouse.ts [--runs 3] [/tasks ...]
 *   npx tsx bench/lighthouse.ts --url http://127.0.0.1:3300 [--runs 3] [/tasks ...]
 *
 * Without --url the script builds the app if needed, copies build/ to a private snapshot and
 * serves that (with the database in DATABASE_URL, which must already hold a catalogue, e.g. one
 * `modelyard serve` filled): other processes rebuilding build/ in the same checkout would
 * otherwise delete the assets under a running measurement.
 *
 * Each page is measured --runs times (default 3) and the run with the median performance score
 * is printed: on a shared 2-core machine single runs swing by several points.
 *
 * Chromium: /usr/bin/chromium (CHROMIUM_PATH), flags as in tests/e2e/support/browser.ts.
 * Demo media and videos live on other hosts, so on an offline machine they fail fast; that is
 * the situation the pages are built for.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, type RunnerResult } from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "#tests/e2e/support/browser.ts";
import { ensureBuild } from "#cli/serve-command.ts";
import { createApp } from "#server/app.ts";

const args = process.argv.slice(2);
const urlIndex = args.indexOf("--url");
const givenBase = urlIndex >= 0 ? args[urlIndex + 1] : undefined;
const runsIndex = args.indexOf("--runs");
const runs = runsIndex >= 0 ? Math.max(1, Number(args[runsIndex + 1]) || 1) : 3;
const paths = args.filter((a, i) => a.startsWith("/") && i !== urlIndex + 1);
const targets = paths.length > 0 ? paths : ["/tasks", "/tasks/text-generation"];

const ROOT = path.resolve(import.meta.dirname, "..");
let server: Server | undefined;
let snapshot: string | undefined;

async function serveSnapshot(): Promise<string> {
  if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL to a database that holds a catalogue, or pass --url.");
  await ensureBuild();
  // Inside the checkout, so the bundle still resolves node_modules; dot-named, so the build's
  // source stamp ignores it.
  snapshot = mkdtempSync(path.join(ROOT, ".lighthouse-build-"));
  cpSync(path.join(ROOT, "build"), snapshot, { recursive: true });
  const build = (await import(pathToFileURL(path.join(snapshot, "server", "index.js")).href)) as ServerBuild;
  const app = createApp(build, path.join(snapshot, "client"));
  const listening: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  server = listening;
  const address = listening.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

const base = givenBase ?? (await serveSnapshot());

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROMIUM_ARGS.map((f) => (f === "--headless" ? "--headless=new" : f)),
});

type Row = { page: string; preset: string; performanceRuns: string; performance: number; accessibility: number; bestPractices: number; seo: number; lcp: string; tbt: string; cls: string };
const rows: Row[] = [];
const problems: string[] = [];

try {
  for (const preset of ["mobile", "desktop"] as const) {
    for (const path of targets) {
      // One warm-up request so the first measured load is not the server's cold start.
      await fetch(base + path);
      const flags: Flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility", "best-practices", "seo"] };
      const results: RunnerResult[] = [];
      for (let i = 0; i < runs; i++) {
        const result = await lighthouse(base + path, flags, preset === "desktop" ? desktopConfig : undefined);
        if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
        results.push(result);
      }
      results.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0));
      const result = results[Math.floor(results.length / 2)];
      if (!result) throw new Error("no Lighthouse result");
      const perfRuns = results.map((r) => Math.round((r.lhr.categories.performance?.score ?? 0) * 100)).join("/");
      const { categories, audits } = result.lhr;
      if (process.env.LH_SAVE) {
        const { writeFileSync } = await import("node:fs");
        writeFileSync(`${process.env.LH_SAVE}/lhr-${preset}-${path.replace(/\W+/g, "_")}.json`, JSON.stringify(result.lhr));
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      rows.push({
        page: path,
        preset,
        performanceRuns: perfRuns,
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        lcp: audits["largest-contentful-paint"]?.displayValue ?? "",
        tbt: audits["total-blocking-time"]?.displayValue ?? "",
        cls: audits["cumulative-layout-shift"]?.displayValue ?? "",
      });
      for (const id of ["accessibility", "performance", "best-practices", "seo"]) {
        for (const ref of categories[id]?.auditRefs ?? []) {
          const audit = audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) {
            problems.push(`${preset} ${path} [${id}] ${audit.id}: ${audit.title} (${audit.displayValue ?? audit.score})`);
            if (process.env.LH_DETAILS === "1") problems.push(`    ${(JSON.stringify(audit.details) ?? "").slice(0, 1500)}`);
          }
        }
      }
    }
  }
} finally {
  chrome.kill();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  if (snapshot) rmSync(snapshot, { recursive: true, force: true });
}

console.table(rows);
if (problems.length > 0) {
  console.log("\nAudits below 0.9:");
  for (const p of [...new Set(problems)]) console.log(`  ${p}`);
}

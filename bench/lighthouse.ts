/**
 * Lighthouse 12 scores for the task pages, printed as a table (goal: accessibility 100,
 * performance >= 95). Runs the mobile preset (Lighthouse's default, simulated slow 4G and a 4x
 * slower CPU) and the desktop preset against the real server.
 *
 *   npx tsx bench/lighthouse.ts                      # starts its own server with a temporary db
 *   npx tsx bench/lighthouse.ts --url http://127.0.0.1:3300 [/tasks /tasks/text-generation ...]
 *
 * Chromium: /usr/bin/chromium (CHROMIUM_PATH), flags as in tests/e2e/support/browser.ts.
 * Demo media and videos live on other hosts, so on an offline machine they fail fast; that is
 * the situation the pages are built for.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, type RunnerResult } from "lighthouse";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "#tests/e2e/support/browser.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";

const args = process.argv.slice(2);
const urlIndex = args.indexOf("--url");
const givenBase = urlIndex >= 0 ? args[urlIndex + 1] : undefined;
const paths = args.filter((a, i) => a.startsWith("/") && i !== urlIndex + 1);
const targets = paths.length > 0 ? paths : ["/tasks", "/tasks/text-generation"];

let server: TestServer | undefined;
const base = givenBase ?? (server = await startTestServer()).url;

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROMIUM_ARGS.map((f) => (f === "--headless" ? "--headless=new" : f)),
});

type Row = { page: string; preset: string; performance: number; accessibility: number; bestPractices: number; seo: number; lcp: string; tbt: string; cls: string };
const rows: Row[] = [];
const problems: string[] = [];

try {
  for (const preset of ["mobile", "desktop"] as const) {
    for (const path of targets) {
      // One warm-up request so the first measured load is not the server's cold start.
      await fetch(base + path);
      const flags: Flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility", "best-practices", "seo"] };
      const result: RunnerResult | undefined = await lighthouse(base + path, flags, preset === "desktop" ? desktopConfig : undefined);
      if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
      const { categories, audits } = result.lhr;
      if (process.env.LH_SAVE) {
        const { writeFileSync } = await import("node:fs");
        writeFileSync(`${process.env.LH_SAVE}/lhr-${preset}-${path.replace(/\W+/g, "_")}.json`, JSON.stringify(result.lhr));
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      rows.push({
        page: path,
        preset,
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
  await server?.stop();
}

console.table(rows);
if (problems.length > 0) {
  console.log("\nAudits below 0.9:");
  for (const p of [...new Set(problems)]) console.log(`  ${p}`);
}

/**
 * Model page figures (goals from issue 4):
 *   - server render p95 with warm caches (goal <= 30 ms): sequential GETs over loopback to the real
 *     server, timed to the last byte of the HTML, after warm-up requests fill the markdown and
 *     highlight caches;
 *   - JavaScript shipped (goal <= 150 KB gzip): every script Chromium loads for the page, gzipped;
 *   - with --lighthouse, Lighthouse scores through bench/lighthouse.ts (goals perf >= 95, a11y 100,
 *     best practices >= 95, SEO >= 95) on bigscience/bloom and on the page with the most files.
 *
 *   npm run bench:page [-- --lighthouse]          # own server, temporary db, real cards imported
 *   npx tsx bench/page.ts --url http://127.0.0.1:3400 [--lighthouse]
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openDatabase } from "#app/db/client.server.ts";
import { launchBrowser } from "#tests/e2e/support/browser.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";
import { percentile } from "./percentile.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const CARDS = path.join(sharedDataDir(), "model-cards");
const args = process.argv.slice(2);
const urlIndex = args.indexOf("--url");
const givenBase = urlIndex >= 0 ? args[urlIndex + 1] : undefined;
const runLighthouse = args.includes("--lighthouse");

let server: TestServer | undefined;
let base: string;
let databaseUrl: string | undefined;
if (givenBase) {
  base = givenBase.replace(/\/+$/, "");
  databaseUrl = process.env["DATABASE_URL"];
} else {
  server = await startTestServer();
  base = server.url;
  databaseUrl = server.databaseUrl;
  const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "import", CARDS], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" });
  if (res.status !== 0) throw new Error(`import failed: ${res.stderr}`);
}

/** The catalogue's model with the longest file list, for the "many files" page. */
async function manyFilesModel(): Promise<string> {
  if (!databaseUrl) return "bigscience/bloom";
  const handle = openDatabase(databaseUrl);
  try {
    const row = await handle.db
      .selectFrom("model_details")
      .innerJoin("models", "models.rid", "model_details.rid")
      .select("models.id")
      .orderBy((eb) => eb.fn("length", ["model_details.siblings"]), "desc")
      .executeTakeFirst();
    return row?.id ?? "bigscience/bloom";
  } finally {
    await handle.close();
  }
}

async function timeGet(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  const start = performance.now();
  const res = await fetch(url, { headers: { "Accept-Encoding": "identity" } });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - start, bytes: body.byteLength, status: res.status };
}

const many = await manyFilesModel();
const pages = [
  "/bigscience/bloom",
  "/meta-llama/Meta-Llama-3-8B-Instruct",
  "/meta-llama/Meta-Llama-3-8B-Instruct?tab=inference&provider=together&stream=1",
  `/${many}?tab=files`,
  "/bigscience/bloom?tab=files&file=README.md",
];

try {
  console.log(`server ${base}\n`);
  console.log("Server render, warm caches (sequential, 200 requests per page after 20 warm-ups):");
  for (const p of pages) {
    for (let i = 0; i < 20; i++) await timeGet(base + p);
    const times: number[] = [];
    let last = { bytes: 0, status: 0 };
    for (let i = 0; i < 200; i++) {
      const r = await timeGet(base + p);
      times.push(r.ms);
      last = r;
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${p.padEnd(80)} HTTP ${last.status}  ${(last.bytes / 1024).toFixed(0).padStart(4)} KB  p50=${percentile(times, 50).toFixed(1)} ms  p95=${percentile(times, 95).toFixed(1)} ms  max=${(times[times.length - 1] ?? 0).toFixed(1)} ms`,
    );
  }

  console.log("\nJavaScript loaded by Chromium (gzip -9 of each script):");
  const browser = await launchBrowser();
  try {
    for (const p of ["/bigscience/bloom", "/meta-llama/Meta-Llama-3-8B-Instruct?tab=inference&provider=together"]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = new Map<string, number>();
      const pending: Promise<void>[] = [];
      page.on("response", (res) => {
        if (res.request().resourceType() !== "script") return;
        pending.push(
          res.body().then(
            (b) => void scripts.set(res.url(), gzipSync(b, { level: 9 }).length),
            () => undefined,
          ),
        );
      });
      await page.goto(base + p, { waitUntil: "networkidle" });
      await Promise.all(pending);
      const total = [...scripts.values()].reduce((a, b) => a + b, 0);
      console.log(`  ${p}: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzip`);
      for (const [u, n] of [...scripts].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`      ${(n / 1024).toFixed(1).padStart(6)} KB  ${new URL(u).pathname}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }

  if (runLighthouse) {
    console.log("\nLighthouse (bench/lighthouse.ts):");
    const res = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), path.join(ROOT, "bench", "lighthouse.ts"), "--url", base, "/bigscience/bloom", `/${many}?tab=files`], {
      cwd: ROOT,
      stdio: "inherit",
    });
    if (res.status !== 0) console.log(`lighthouse exited with ${res.status}`);
  }
} finally {
  await server?.stop();
}

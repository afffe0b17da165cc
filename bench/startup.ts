/**
 * npm run bench:startup [-- --baseline-ref REF] — time from `modelyard serve` to "running at" on a
 * fresh database (which includes loading the bundled catalogue) and on a warm one, plus the
 * server's RSS after start and after 200 page requests. `--baseline-ref` runs the same for that
 * commit's own code (built beside this checkout) in the same run, alternating, `--rounds` times
 * each (default 2: a first round also pays for cold caches, tsx's among them). Assumes the app is
 * already built (`modelyard build`).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";
import { checkoutBaseline, startCommandOf } from "./baseline-checkout.ts";
import { rssOf } from "./proc-status.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: opt } = parseArgs({ options: { "baseline-ref": { type: "string" }, rounds: { type: "string", default: "2" } } });

async function start(root: string, dbUrl: string): Promise<{ ms: number; url: string; pid: number; stop: () => Promise<void> }> {
  // An earlier commit's server runs as its own `npm start` did: its flags and environment.
  const own = root === ROOT ? { flags: [...SERVE_NODE_FLAGS], env: { ...SERVE_ENV } } : startCommandOf(root);
  const t0 = performance.now();
  const child = spawn(process.execPath, [...own.flags, path.join(root, "bin", "modelyard.mjs"), "serve", "--port", "0"], {
    cwd: root,
    env: { ...process.env, ...own.env, DATABASE_URL: dbUrl, HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /running at (http:\/\/localhost:\d+)/.exec(out);
      if (m) resolve(m[1]!.replace("localhost", "127.0.0.1"));
    });
    child.once("exit", (c) => reject(new Error(`exited ${c}: ${out}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { ms: performance.now() - t0, url, pid: child.pid!, stop };
}

const PAGES = ["/", "/models", "/models?sort=downloads", "/tasks", "/tasks/text-generation", "/spaces", "/meta-llama/Meta-Llama-3-8B"];

async function measure(root: string): Promise<{ cold: number; warm: number; rssStart: number; rssAfter: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-startup-"));
  try {
    const db = `sqlite:${path.join(dir, "s.db")}`;
    const cold = await start(root, db);
    await cold.stop();
    const warm = await start(root, db);
    const rssStart = rssOf(warm.pid).rss;
    for (let i = 0; i < 200; i++) await (await fetch(warm.url + PAGES[i % PAGES.length])).text();
    const rssAfter = rssOf(warm.pid).rss;
    await warm.stop();
    return { cold: cold.ms, warm: warm.ms, rssStart, rssAfter };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const baseline = opt["baseline-ref"] ? checkoutBaseline(opt["baseline-ref"]) : null;
const modes = [...(baseline ? [{ label: `${opt["baseline-ref"]} (its own code)`, root: baseline.root }] : []), { label: "this checkout", root: ROOT }];
const rows: string[] = [];
try {
  for (let round = 1; round <= Number(opt.rounds); round++)
    for (const mode of modes) {
      const m = await measure(mode.root);
      const row = `| ${mode.label}, round ${round} | ${(m.cold / 1000).toFixed(1)} | ${(m.warm / 1000).toFixed(1)} | ${m.rssStart.toFixed(0)} | ${m.rssAfter.toFixed(0)} |`;
      console.log(row);
      rows.push(row);
    }
} finally {
  baseline?.remove();
}
console.log("\n| server | first start, loads the bundled catalogue (s) | second start (s) | RSS after start (MB) | RSS after 200 page requests (MB) |");
console.log("|---|---:|---:|---:|---:|");
for (const r of rows) console.log(r);

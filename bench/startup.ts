/**
 * npm run bench:startup — time from `modelyard serve` to "running at" on a fresh database (which
 * includes loading the bundled catalogue) and on a warm one, plus the server's RSS after 200
 * page requests. Assumes the app is already built (`modelyard build`).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";
import { rssOf } from "./proc-status.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

async function start(dbUrl: string): Promise<{ ms: number; url: string; pid: number; stop: () => void }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...SERVE_NODE_FLAGS, path.join(ROOT, "bin", "modelyard.mjs"), "serve", "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, ...SERVE_ENV, DATABASE_URL: dbUrl, HOST: "127.0.0.1" },
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
  return { ms: performance.now() - t0, url, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-startup-"));
try {
  const db = `sqlite:${path.join(dir, "s.db")}`;
  const cold = await start(db);
  console.log(`first start (empty database, loads the bundled catalogue): ${(cold.ms / 1000).toFixed(1)} s`);
  cold.stop();
  await new Promise((r) => setTimeout(r, 1000));
  const warm = await start(db);
  console.log(`second start (catalogue already loaded): ${(warm.ms / 1000).toFixed(1)} s`);
  console.log(`RSS after start: ${rssOf(warm.pid).rss.toFixed(0)} MB`);
  const pages = ["/", "/models", "/models?sort=downloads", "/tasks", "/tasks/text-generation", "/spaces", "/meta-llama/Meta-Llama-3-8B"];
  for (let i = 0; i < 200; i++) await (await fetch(warm.url + pages[i % pages.length])).text();
  console.log(`RSS after 200 page requests: ${rssOf(warm.pid).rss.toFixed(0)} MB`);
  warm.stop();
} finally {
  setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 1500);
}

/**
 * A commit's own code, built beside this checkout, for benchmarks that print today's figures next
 * to that commit's in the same run (`--baseline-ref REF`).
 */
import { type ChildProcessByStdio, execFileSync, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

/** A built checkout of `ref` in the OS temp dir, sharing this checkout's node_modules. */
export function checkoutBaseline(ref: string): { root: string; remove(): void } {
  const sha = execFileSync("git", ["rev-parse", "--short", ref], { cwd: ROOT, encoding: "utf8" }).trim();
  const root = path.join(os.tmpdir(), `modelyard-baseline-${sha}`);
  if (!fs.existsSync(path.join(root, "build", "server"))) {
    fs.rmSync(root, { recursive: true, force: true });
    execFileSync("git", ["worktree", "add", "--detach", "--force", root, sha], { cwd: ROOT, stdio: "ignore" });
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
    console.log(`  building ${sha} in ${root} …`);
    try {
      execFileSync(process.execPath, [path.join(ROOT, "node_modules", "@react-router", "dev", "bin.js"), "build"], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    } catch (e) {
      execFileSync("git", ["worktree", "remove", "--force", root], { cwd: ROOT, stdio: "ignore" });
      throw new Error(`building ${sha} for the baseline failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return {
    root,
    remove: () => {
      execFileSync("git", ["worktree", "remove", "--force", root], { cwd: ROOT, stdio: "ignore" });
    },
  };
}

/**
 * The Node flags and environment `npm start` gives the server in the checkout at `root`, read
 * from its package.json: a baseline runs with its own (an older commit may lack a flag this one
 * adds), this checkout with cli/serve-flags.ts's.
 */
export function startCommandOf(root: string): { flags: string[]; env: Record<string, string> } {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const words = (pkg.scripts?.["start"] ?? "").split(/\s+/).filter(Boolean);
  const node = words.indexOf("node");
  if (node < 0) throw new Error(`${root}/package.json: its start script does not run node`);
  const env: Record<string, string> = {};
  for (const w of words.slice(0, node)) {
    const eq = w.indexOf("=");
    if (eq > 0) env[w.slice(0, eq)] = w.slice(eq + 1);
  }
  const flags: string[] = [];
  for (const w of words.slice(node + 1)) {
    if (!w.startsWith("--")) break;
    flags.push(w);
  }
  return { flags, env };
}

/**
 * `modelyard serve` of the checkout at `root` on a free loopback port, run as that checkout's own
 * `npm start` runs it (its flags and environment), with `extra` flags and variables on top.
 */
export function spawnServe(root: string, databaseUrl: string, extra: { flags?: string[]; env?: Record<string, string> } = {}): ChildProcessByStdio<null, Readable, Readable> {
  const start = root === ROOT ? { flags: [...SERVE_NODE_FLAGS], env: { ...SERVE_ENV } } : startCommandOf(root);
  return spawn(process.execPath, [...start.flags, ...(extra.flags ?? []), path.join(root, "bin", "modelyard.mjs"), "serve", "--port", "0"], {
    cwd: root,
    env: { ...process.env, ...start.env, HOST: "127.0.0.1", NODE_ENV: "production", DATABASE_URL: databaseUrl, MODELYARD_SKIP_BUNDLED: "1", ...extra.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

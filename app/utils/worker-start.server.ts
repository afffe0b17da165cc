import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type * as Esbuild from "esbuild";

/** A worker's script: the emitted file, or code to evaluate. */
export interface WorkerStart {
  script: string | URL;
  eval: boolean;
}

const bundled = new Map<string, string>();

/**
 * How to start a worker thread from `entry`, a module named by `new URL("./x.ts", import.meta.url)`.
 * The server build's entry is JavaScript (server/worker-entry-plugin.ts) and starts as it is.
 * A TypeScript entry cannot: on Node 20 the parent's loader hooks do not reach worker threads,
 * and tsx registered inside each worker takes most of a second to start. So esbuild bundles it
 * once per process and every worker evaluates that code. Packages stay outside the bundle
 * (`external`) when they are native, such as better-sqlite3.
 */
export function workerStart(entry: URL, external: readonly string[] = []): WorkerStart {
  if (!entry.pathname.endsWith(".ts")) return { script: entry, eval: false };
  const file = fileURLToPath(entry);
  let code = bundled.get(file);
  if (code === undefined) {
    // Loaded only here, so the built server never loads esbuild.
    const esbuild = createRequire(import.meta.url)("esbuild") as typeof Esbuild;
    const built = esbuild.buildSync({
      entryPoints: [file],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      write: false,
      logLevel: "silent",
      external: [...external],
    });
    code = built.outputFiles[0]?.text;
    if (!code) throw new Error(`esbuild produced no code for ${file}`);
    bundled.set(file, code);
  }
  return { script: code, eval: true };
}

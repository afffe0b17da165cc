import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { SERVE_ENV, SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";
import { awaitServeUrl } from "#tests/support/serve-url.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

export interface TestServer {
  url: string;
  dir: string;
  databaseUrl: string;
  output(): string;
  /** Sends the server process a signal (SIGTERM: graceful shutdown). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the process's exit code once it has exited. */
  exited(): Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * Starts the real server (`modelyard serve`) on a free port with a temporary SQLite database: a
 * copy of the one the run's global setup filled from the bundled catalogue, or with `firstStart`
 * an empty one, which the server fills itself as on a new machine. Extra env (for example
 * MODELYARD_UPSTREAM_OVERRIDE) is passed through; DATABASE_URL may point at PostgreSQL instead.
 */
export async function startTestServer(opts: { env?: Record<string, string>; databaseUrl?: string; firstStart?: boolean } = {}): Promise<TestServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-e2e-"));
  const file = path.join(dir, "modelyard.db");
  if (!opts.databaseUrl && !opts.firstStart) {
    const template = inject("templateDatabase");
    for (const suffix of ["", "-wal"]) if (fs.existsSync(template + suffix)) fs.copyFileSync(template + suffix, file + suffix);
  }
  const databaseUrl = opts.databaseUrl ?? `sqlite:${file}`;
  const child: ChildProcess = spawn(process.execPath, [...SERVE_NODE_FLAGS, path.join(ROOT, "bin", "modelyard.mjs"), "serve", "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, ...SERVE_ENV, HOST: "127.0.0.1", NODE_ENV: "production", ...opts.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await awaitServeUrl(child, () => out, 180_000);
  return {
    url,
    dir,
    databaseUrl,
    output: () => out,
    signal: (signal) => void child.kill(signal),
    exited: () => exited,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

/**
 * Runs `modelyard import <args>` against a database with the real CLI, as an operator beside a
 * running server would, and resolves with its output.
 *
 * Not spawnSync: while an import of several seconds blocked this process's event loop, the
 * server closed the test's idle keep-alive connection (5 s), the client never saw it go, and the
 * next request on it failed with "other side closed" on a loaded machine.
 */
export function importWithCli(databaseUrl: string, args: string[]): Promise<string> {
  return runModelyard(databaseUrl, ["import", ...args]);
}

/** Any `modelyard` command against a database, as an operator types it; resolves with its output. */
export function runModelyard(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`modelyard ${args.join(" ")} exited ${code}:\n${stdout}\n${stderr}`))));
  });
}

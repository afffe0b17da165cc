/**
 * Shared set-up for the model page journeys: the real server on a temporary database (bundled
 * catalogue), plus cards imported with the real `modelyard import` command.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { openDatabase, type DatabaseHandle } from "#app/db/client.server.ts";
import { startTestServer, type TestServer } from "./support/server.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const REAL_CARDS = path.resolve(ROOT, "..", "shared", "data", "model-cards");

/** Runs `modelyard import <paths>` against the test server's database. */
export function importIntoServer(server: TestServer, ...paths: string[]): string {
  const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "import", ...paths], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: server.databaseUrl },
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`import failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

export async function startModelPageServer(): Promise<{ server: TestServer; db: DatabaseHandle }> {
  const server = await startTestServer();
  return { server, db: openDatabase(server.databaseUrl) };
}

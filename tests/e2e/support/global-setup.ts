/**
 * Once per run of the browser journeys: a SQLite database that the real server filled from the
 * bundled catalogue on its first start. Each journey's server starts on a copy of it
 * (startTestServer), so the import runs once, not once per file. The foundation journey still
 * starts on an empty database, to see the first start as a new user does.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startTestServer } from "./server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The filled SQLite file journeys' servers start from a copy of. */
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-e2e-template-"));
  const file = path.join(dir, "template.db");
  const server = await startTestServer({ databaseUrl: `sqlite:${file}` });
  // Its statistics and facet caches are stored too, as on any later start.
  const deadline = Date.now() + 120_000;
  while (!server.output().includes("facet index ready") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  await server.stop();
  project.provide("templateDatabase", file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

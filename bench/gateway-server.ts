/**
 * The gateway alone, for bench/gateway.ts --server bare: createInferenceGateway over a fresh SQLite
 * catalogue (the bundled snapshot), served on loopback by the one /api/inference handler
 * (app/inference/node-adapter.server.ts) without Express. Prints "gateway at
 * http://127.0.0.1:<port>" when ready.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { databaseCatalog } from "#app/inference/catalog-source.server.ts";
import { createInferenceGateway } from "#app/inference/gateway.server.ts";
import { serveGateway } from "#tests/inference/serve-gateway.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-bench-gw-"));
const handle = openDatabase(`sqlite:${path.join(dir, "catalogue.db")}`);
await migrate(handle);
await importPaths(handle, [path.join(ROOT, "catalogue", "hub-catalogue-2024-07-11.jsonl.gz")], { statsAsOf: "2024-07-11" });
const gateway = createInferenceGateway({ catalog: databaseCatalog(() => handle), env: process.env, database: () => handle.db, log: () => {} });
const served = await serveGateway(gateway);
console.log(`gateway at ${served.url}`);
const stop = async () => {
  await served.close();
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());

/**
 * Test and benchmark support: serves an InferenceGateway over a real loopback HTTP socket through
 * the one /api/inference handler (node-adapter.server.ts, as both servers mount it) and /v1
 * (app/openai-api/v1-handler.server.ts), and builds a
 * real SQLite catalogue for it.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import type { Database } from "#app/db/schema.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { databaseCatalog } from "#app/inference/catalog-source.server.ts";
import type { InferenceGateway } from "#app/inference/gateway.server.ts";
import { handleNodeRequest } from "#app/inference/node-adapter.server.ts";
import { handleOpenAiRequest } from "#app/openai-api/v1-handler.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";

export interface ServedGateway {
  url: string;
  close(): Promise<void>;
}

export async function serveGateway(gateway: InferenceGateway): Promise<ServedGateway> {
  // /v1 as server/app.ts mounts it: OpenAI's API over the same gateway.
  const server = http.createServer((req, res) => void ((req.url ?? "").startsWith("/v1/") ? handleOpenAiRequest(gateway, req, res) : handleNodeRequest(gateway, req, res)));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TestCatalog {
  catalog: GatewayCatalog;
  /** The same database, for the gateway's accounts, quotas and usage records. */
  database: () => Kysely<Database>;
  drop(): Promise<void>;
}

/** A migrated SQLite database holding the given Hub-shaped records, read through the gateway's catalogue source. */
export async function buildTestCatalog(records: ReadonlyArray<Record<string, unknown>>): Promise<TestCatalog> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-gateway-"));
  const handle = openDatabase(`sqlite:${path.join(dir, "catalogue.db")}`);
  await migrate(handle);
  const file = path.join(dir, "models.jsonl");
  fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const summary = await importPaths(handle, [file]);
  if (summary.rejected > 0) throw new Error(`test catalogue: ${summary.rejected} records rejected`);
  return {
    catalog: databaseCatalog(() => handle, { ttlMs: 0 }),
    database: () => handle.db,
    drop: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

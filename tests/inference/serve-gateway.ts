/**
 * Test and benchmark support: serves an InferenceGateway over a real loopback HTTP socket and
 * builds a real SQLite catalogue for it. Two adapters: "node" is the production server's path
 * (node-adapter.server.ts, on Node's request and response); "fetch" goes through handle() with a
 * Fetch Request and Response, the way React Router's Express adapter does (the request signal
 * aborts when the client goes away; a cancelled response body cancels the stream).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { databaseCatalog } from "#app/inference/catalog-source.server.ts";
import type { InferenceGateway } from "#app/inference/gateway.server.ts";
import { handleNodeRequest } from "#app/inference/node-adapter.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";

export interface ServedGateway {
  url: string;
  close(): Promise<void>;
}

export type GatewayAdapter = "node" | "fetch";

/** The adapter the API tests use; GATEWAY_TEST_ADAPTER=fetch runs them through the Fetch path instead. */
export const DEFAULT_ADAPTER: GatewayAdapter = process.env["GATEWAY_TEST_ADAPTER"] === "fetch" ? "fetch" : "node";

export async function serveGateway(gateway: InferenceGateway, opts: { adapter?: GatewayAdapter } = {}): Promise<ServedGateway> {
  const adapter = opts.adapter ?? DEFAULT_ADAPTER;
  const server = http.createServer((req, res) => {
    if (adapter === "node") {
      void handleNodeRequest(gateway, req, res);
      return;
    }
    const controller = new AbortController();
    let finished = false;
    res.on("finish", () => (finished = true));
    res.on("close", () => {
      if (!finished) controller.abort();
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string") headers.set(k, v);
      else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    }
    const init: RequestInit & { duplex?: "half" } = { method: req.method ?? "GET", headers, signal: controller.signal };
    if (req.method !== "GET" && req.method !== "HEAD") {
      init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
      init.duplex = "half";
    }
    const request = new Request(`http://127.0.0.1${req.url ?? "/"}`, init);
    gateway
      .handle(request, { clientKey: req.socket.remoteAddress ?? "" })
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.headers.get("content-type")?.includes("text/event-stream")) res.flushHeaders();
        if (!response.body) return res.end();
        const reader = response.body.getReader();
        res.on("close", () => {
          if (!finished) reader.cancel().catch(() => {});
        });
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!res.write(value)) await new Promise((r) => res.once("drain", r));
        }
        res.end();
      })
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(`adapter error: ${String(error)}`);
      });
  });
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
    drop: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

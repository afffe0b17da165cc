import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

const KEY = Symbol.for("modelyard.db");
type Holder = { [KEY]?: DatabaseHandle };

/**
 * The process-wide database handle. Kept on globalThis so the CLI (run by tsx) and the built
 * server bundle, which load separate copies of this module, share one connection pool.
 */
export function getDb(): DatabaseHandle {
  const g = globalThis as Holder;
  g[KEY] ??= openDatabase(getEnv().DATABASE_URL);
  return g[KEY];
}

export function setDb(handle: DatabaseHandle): void {
  (globalThis as Holder)[KEY] = handle;
}

import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

let handle: DatabaseHandle | undefined;

/**
 * The process-wide database handle, opened from DATABASE_URL on first use unless `modelyard serve`
 * set it first. Module state is enough: the serve process holds one copy of app/ (ADR 0019).
 */
export function getDb(): DatabaseHandle {
  handle ??= openDatabase(getEnv().DATABASE_URL);
  return handle;
}

export function setDb(next: DatabaseHandle): void {
  handle = next;
}

/** The handle if one is open, without opening one (metrics read the catalogue only when it is there). */
export function openedDb(): DatabaseHandle | undefined {
  return handle;
}

import { sql } from "kysely";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getMeta, setMeta } from "#app/db/queries/meta.server.ts";

const DEFERRED_KEY = "bulk_load_deferred_indexes";
const TABLES = ["models", "model_tags", "model_bases", "model_providers"];

/**
 * SQLite bulk-load mode for filling an empty catalogue: secondary indexes are dropped and built
 * once at the end, because building an index from a full table is several times cheaper than
 * maintaining it row by row. (The trigram index is still written per row: its 'rebuild' measured
 * five times slower than incremental inserts.) Their definitions are saved in
 * `meta` in the same transaction as the drop, so a crash mid-import loses nothing: the next
 * import or server start calls `finishBulkLoad`, which rebuilds whatever is pending.
 * See ADR 0005.
 */
export async function startBulkLoad(handle: DatabaseHandle): Promise<boolean> {
  if (handle.dialect !== "sqlite") return false;
  const { db } = handle;
  // Checkpoint less often while loading: a tag-index page rewritten by many batches is then
  // copied back to the database file once instead of once per batch.
  handle.sqlite?.pragma("wal_autocheckpoint = 50000");
  return db.transaction().execute(async (trx) => {
    const rows = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'index' and sql is not null and tbl_name in (${sql.join(TABLES)})`.execute(trx);
    const pending = JSON.parse((await getMeta(trx, DEFERRED_KEY)) ?? "[]") as string[];
    await setMeta(trx, DEFERRED_KEY, JSON.stringify([...pending, ...rows.rows.map((r) => r.sql)]));
    for (const r of rows.rows) await sql`drop index ${sql.id(r.name)}`.execute(trx);
    return true;
  });
}

export async function isBulkLoadPending(handle: DatabaseHandle): Promise<boolean> {
  if (handle.dialect !== "sqlite") return false;
  return (await getMeta(handle.db, DEFERRED_KEY)) !== null;
}

/** Recreates deferred indexes; a no-op when nothing is pending. */
export async function finishBulkLoad(handle: DatabaseHandle, onStep?: (what: string) => void): Promise<void> {
  if (handle.dialect !== "sqlite") return;
  const { db } = handle;
  handle.sqlite?.pragma("wal_autocheckpoint = 1000");
  const deferred = JSON.parse((await getMeta(db, DEFERRED_KEY)) ?? "[]") as string[];
  for (const stmt of deferred) {
    onStep?.(stmt.replace(/\s+/g, " ").slice(0, 80));
    await sql.raw(stmt.replace(/^create (unique )?index /i, (m) => `${m}if not exists `)).execute(db);
  }
  if (!deferred.length) return;
  await db.deleteFrom("meta").where("key", "=", DEFERRED_KEY).execute();
  // Sampled statistics are enough for the planner and take a fraction of a full ANALYZE.
  await sql`pragma analysis_limit = 1000`.execute(db);
  await sql`analyze`.execute(db);
}

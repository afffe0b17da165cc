import { type Kysely, sql } from "kysely";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { runExclusively } from "#app/db/queries/job-lock.server.ts";
import * as m0001 from "#app/db/migrations/0001-catalogue.ts";
import * as m0002 from "#app/db/migrations/0002-catalogue-listing.ts";
import * as m0003 from "#app/db/migrations/0003-explicit-search-index.ts";
import * as m0004 from "#app/db/migrations/0004-catalogue-narrow-index.ts";
import * as m0005 from "#app/db/migrations/0005-catalogue-sort-index-ids.ts";
import * as m0006 from "#app/db/migrations/0006-postgres-sort-index-ids.ts";
import * as m0007 from "#app/db/migrations/0007-transformers-info-source.ts";
import * as m0008 from "#app/db/migrations/0008-undated-missing-counts.ts";
import * as m0009 from "#app/db/migrations/0009-accounts.ts";
import * as m0010 from "#app/db/migrations/0010-usage-endpoint.ts";
import * as m0011 from "#app/db/migrations/0011-listing-index-store.ts";
import * as m0012 from "#app/db/migrations/0012-models-without-counts.ts";
import * as m0013 from "#app/db/migrations/0013-tasks-from-mappings.ts";
import * as m0014 from "#app/db/migrations/0014-packed-weights-no-params.ts";

export interface Migration {
  name: string;
  up(db: Kysely<unknown>, dialect: DatabaseHandle["dialect"]): Promise<void>;
}

// Listed in order; a migration is never edited once it has shipped, only followed by a new one.
const MIGRATIONS: Migration[] = [
  { name: "0001-catalogue", up: m0001.up },
  { name: "0002-catalogue-listing", up: m0002.up },
  { name: "0003-explicit-search-index", up: m0003.up },
  { name: "0004-catalogue-narrow-index", up: m0004.up },
  { name: "0005-catalogue-sort-index-ids", up: m0005.up },
  { name: "0006-postgres-sort-index-ids", up: m0006.up },
  { name: "0007-transformers-info-source", up: m0007.up },
  { name: "0008-undated-missing-counts", up: m0008.up },
  { name: "0009-accounts", up: m0009.up },
  { name: "0010-usage-endpoint", up: m0010.up },
  { name: "0011-listing-index-store", up: m0011.up },
  { name: "0012-models-without-counts", up: m0012.up },
  { name: "0013-tasks-from-mappings", up: m0013.up },
  { name: "0014-packed-weights-no-params", up: m0014.up },
];

const KNOWN = new Set(MIGRATIONS.map((m) => m.name));

/**
 * The database records migrations this build does not have: a newer Modelyard has changed its
 * schema, and this one would read and write it by an older one (ADR 0049). Nothing is written.
 */
export class NewerDatabaseError extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `The database has been migrated by a newer version of Modelyard (migrations this version does not know: ${unknown.join(", ")}). ` +
        "This version stops rather than read or write a schema it does not know. Run the newer version again, or restore a backup taken before it ran.",
    );
    this.name = "NewerDatabaseError";
  }
}

/** The migrations this build knows that the database has not applied (all of them on a new database). */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const db = handle.db as unknown as Kysely<unknown>;
  const rows = await sql<{ name: string }>`select name from modelyard_migrations`.execute(db).catch((e: unknown) => {
    // No table yet: nothing applied. Anything else (the database is down) is the caller's to report.
    if (e instanceof Error && /no such table|does not exist/i.test(e.message)) return { rows: [] };
    throw e;
  });
  const done = new Set(rows.rows.map((r) => r.name));
  return MIGRATIONS.filter((m) => !done.has(m.name)).map((m) => m.name);
}

/**
 * Applies pending migrations, each in its own transaction, and returns the names applied.
 * Kysely's Migrator is not used because its provider cannot pass the dialect our DDL needs.
 *
 * Instances started at the same moment on one database all migrate at start: on PostgreSQL they
 * take turns under an advisory lock (two creating the same table at once made one fail on
 * pg_type's unique index and stop), and on both engines a migration is claimed by writing its
 * row first in its transaction, so one that another process applied after this one read the list
 * is skipped rather than applied twice.
 */
export async function migrate(handle: DatabaseHandle): Promise<string[]> {
  return runExclusively(handle, "migrate", async (kdb) => {
    const db = kdb as unknown as Kysely<unknown>;
    await sql`create table if not exists modelyard_migrations (name text primary key, applied_at text not null)`.execute(db);
    const rows = await sql<{ name: string }>`select name from modelyard_migrations`.execute(db);
    const done = new Set(rows.rows.map((r) => r.name));
    const unknown = [...done].filter((name) => !KNOWN.has(name)).sort();
    if (unknown.length) throw new NewerDatabaseError(unknown);
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.name)) continue;
      if (await applyMigration(db, handle.dialect, m)) applied.push(m.name);
    }
    return applied;
  });
}

/**
 * Applies one migration unless it is recorded as applied, in one transaction that records it
 * first: the insert waits for, then yields to, another process applying the same migration.
 * Resolves with whether this call applied it.
 */
export async function applyMigration(db: Kysely<unknown>, dialect: DatabaseHandle["dialect"], m: Migration): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const claimed = await sql`insert into modelyard_migrations (name, applied_at) values (${m.name}, ${new Date().toISOString()}) on conflict (name) do nothing`.execute(trx);
    if (Number(claimed.numAffectedRows ?? 0n) === 0) return false;
    await m.up(trx, dialect);
    return true;
  });
}

/**
 * The database a command works on (serve, import, migrate, users, tokens), opened and migrated. A
 * failure names the database and what to do: the driver's own line ("connect ECONNREFUSED
 * 172.17.0.2:5433", "unable to open database file") names neither the setting nor what failed.
 */
export async function openMigratedDatabase(databaseUrl: string | undefined): Promise<{ handle: DatabaseHandle; applied: string[] }> {
  let handle: DatabaseHandle;
  try {
    handle = openDatabase(databaseUrl);
  } catch (e) {
    throw new Error(`The database (DATABASE_URL) could not be opened: ${messageOf(e)}. Check that DATABASE_URL names a database this process can open and write.`);
  }
  try {
    return { handle, applied: await migrate(handle) };
  } catch (e) {
    await handle.close().catch(() => undefined);
    if (e instanceof NewerDatabaseError) throw new Error(`The database at ${handle.location} (DATABASE_URL): ${e.message}`);
    throw new Error(
      `The database at ${handle.location} (DATABASE_URL) could not be opened and migrated: ${messageOf(e)}. Check that it is running and reachable, and that DATABASE_URL names it.`,
    );
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

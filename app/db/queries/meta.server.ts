import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export async function getMeta(db: Db, key: string): Promise<string | null> {
  const row = await db.selectFrom("meta").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? null;
}

export async function setMeta(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto("meta")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}

/**
 * The catalogue generation: bumped in the same transaction as every import batch that changes
 * data, so anything cached against an older generation (facet counts, totals) is known stale.
 */
export async function getCatalogueGeneration(db: Db): Promise<number> {
  return Number((await getMeta(db, "generation")) ?? "0");
}

/**
 * Moves the generation on by one and returns the new one, in one statement: two imports committing
 * at once (the CLI's and an instance's live details) each get a generation of their own. Read,
 * then written, both got the same one on PostgreSQL, and a listing index built between the two
 * commits was saved and loaded as the later one's, without its rows, until the next import.
 */
export async function bumpCatalogueGeneration(db: Db): Promise<number> {
  const row = await db
    .insertInto("meta")
    .values({ key: "generation", value: "1" })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: sql<string>`cast(cast(meta.value as bigint) + 1 as text)` }))
    .returning("value")
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

export async function deleteMeta(db: Db, key: string): Promise<void> {
  await db.deleteFrom("meta").where("key", "=", key).execute();
}

/** The cheapest round trip to the database, whatever its schema (readiness). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Claims the period of `everyMs` from `now` under `key`: true for exactly one caller, on any
 * instance, until the period has passed (one conditional upsert, atomic on both engines).
 */
export async function claimPeriod(db: Db, key: string, now: number, everyMs: number): Promise<boolean> {
  const at = new Date(now).toISOString();
  const before = new Date(now - everyMs).toISOString();
  const result = await db
    .insertInto("meta")
    .values({ key, value: at })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: at }).where("meta.value", "<=", before))
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

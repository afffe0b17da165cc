import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

export async function countModels(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("models").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the catalogue holds any model: one row read, whatever its size (readiness). */
export async function hasModels(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom("models").select("id").limit(1).executeTakeFirst()) !== undefined;
}

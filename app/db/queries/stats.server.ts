import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";

export async function countModels(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("models").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * SQLite: the sort indexes also carry the model id. A search for a common term walks a sort index
 * and tests each id against the pattern; with the id in the index SQLite tests it there and reads
 * the table row only for matches (a deferred seek), instead of reading every row it passes.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== "sqlite") return;
  for (const col of ["downloads", "likes", "trending_score", "created_at", "last_modified"]) {
    await sql`drop index if exists ${sql.id(`models_${col}`)}`.execute(db);
    await sql`create index ${sql.id(`models_${col}`)} on models (${sql.id(col)} desc, rid, id)`.execute(db);
  }
}

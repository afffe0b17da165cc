import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * SQLite: a narrow copy of the listing columns, keyed by rowid. Checking and sorting a few thousand
 * search matches by rowid reads whole model rows (tags and all, often several per page) from the
 * table; read from this index it touches a tenth of the pages. PostgreSQL's heap rows are read
 * through its own buffer cache and do not need it.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== "sqlite") return;
  await sql`create index models_narrow on models (
    rid, pipeline_tag, library_name, license, params, downloads, likes, trending_score, created_at, last_modified, author, id
  )`.execute(db);
}

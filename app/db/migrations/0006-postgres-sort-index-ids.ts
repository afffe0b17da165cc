import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * PostgreSQL: the catalogue-wide sort indexes carry the model id (INCLUDE), as SQLite's do since
 * 0005. A search for a common term walks a sort index and tests each id; with the id in the index
 * the walk is index-only and reads a heap row only for the page it returns, instead of one per row
 * it passes (a search's page at offset 3,000 read some 25,000 heap rows).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== "postgres") return;
  const indexes = [
    { name: "models_downloads", col: "downloads", nulls: "" },
    { name: "models_likes", col: "likes", nulls: "" },
    { name: "models_trending_score", col: "trending_score", nulls: "" },
    { name: "models_created_at_nl", col: "created_at", nulls: " nulls last" },
    { name: "models_last_modified_nl", col: "last_modified", nulls: " nulls last" },
  ];
  for (const ix of indexes) {
    await sql`drop index if exists ${sql.id(ix.name)}`.execute(db);
    await sql`create index ${sql.id(ix.name)} on models (${sql.id(ix.col)} desc${sql.raw(ix.nulls)}, rid) include (id)`.execute(db);
  }
}

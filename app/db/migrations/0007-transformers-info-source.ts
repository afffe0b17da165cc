import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * Where a model's `transformersInfo` came from: "hub" when the imported record carried it,
 * "config", "tags", "task" or "default" when the importer derived it (ADR 0014). Rows imported before this
 * migration that hold one got it from their record, so they are marked "hub"; nothing else changes.
 * A nullable column added with ALTER TABLE: the same statement on SQLite and PostgreSQL, no rewrite.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  await sql`alter table model_details add column transformers_info_source text`.execute(db);
  await sql`update model_details set transformers_info_source = 'hub' where transformers_info is not null`.execute(db);
}

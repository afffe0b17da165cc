import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * SQLite: the importer now writes the trigram index itself, in the same transaction as the
 * model rows. A trigger-driven FTS5 insert measured 3.5x slower than the same explicit insert,
 * which put a 760k-row import far past its 60 s budget. See ADR 0005.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== "sqlite") return;
  await sql`drop trigger if exists models_fts_ai`.execute(db);
  await sql`drop trigger if exists models_fts_ad`.execute(db);
  await sql`drop trigger if exists models_fts_au`.execute(db);
}

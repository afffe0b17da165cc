import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";

/**
 * The in-memory listing index, saved with the catalogue generation it was built from, so a
 * process that starts on an unchanged catalogue loads it instead of building it again (ADR 0045).
 * One build is a header row (seq 0, written last) and its arrays' bytes in chunks; `build` tells
 * apart two instances that saved the same generation at once.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const big = dialect === "sqlite" ? sql`integer` : sql`bigint`;
  const bytes = dialect === "sqlite" ? sql`blob` : sql`bytea`;
  await sql`create table listing_index (
    build text not null,
    seq integer not null,
    generation ${big} not null,
    bytes ${bytes} not null,
    primary key (build, seq)
  )`.execute(db);
  await sql`create index listing_index_generation on listing_index (generation, seq)`.execute(db);
}

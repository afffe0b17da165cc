import { type Kysely, sql } from "kysely";
import type { DialectName } from "#app/db/client.server.ts";
import { bumpCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";

/**
 * Before ADR 0031 the importer gave every new row of a dated file that file's snapshot date, counts
 * or none, so a model the file gave no counts showed "0 downloads · as of 2024-07-11". A fresh
 * import now leaves such a row undated; this brings older databases to the same state.
 *
 * Those rows are told apart by what they lack: zero downloads, zero likes and no creation date,
 * yet a date for their counts. Every row of the Hub's list dumps has a creation date (all 760,000
 * of the 2024-07-11 dump), so no counted row matches; the bundled catalogue's 225 rows without
 * counts are exactly the rows that do. Pages already show a zero-and-zero model without counts
 * when it is live (`hasKnownCounts`), so a true zero left undated says nothing false.
 * The generation moves on when rows change, so a server that is running drops what it cached.
 */
export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  const result = await sql`update models set stats_as_of = null
    where stats_as_of is not null and downloads = 0 and likes = 0 and created_at is null`.execute(db);
  if ((result.numAffectedRows ?? 0n) > 0n) await bumpCatalogueGeneration(db as unknown as Kysely<Database>);
}

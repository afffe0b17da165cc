import { type Kysely, sql } from "kysely";

/**
 * The rows without a snapshot date, by their counts: those with zero downloads and zero likes are
 * the rows without counts (list-API rows whose zeros are the importer's), which the note of the
 * downloads and likes sorts counts for a filtered view (views/sort-coverage.server.ts). Without it
 * SQLite counted them on the downloads index, every row of zero downloads read, counted ones
 * included: half of a full dump. A partial index on the row id alone was not chosen by SQLite's
 * planner, which prefers an index with an equality on it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index models_no_counts on models (downloads, likes) where stats_as_of is null`.execute(db);
}

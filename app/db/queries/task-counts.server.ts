import type { Kysely } from "kysely";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";

export type TaskCounts = Record<string, number>;

// One cache per Kysely instance (tests open several databases in one process).
const caches = new WeakMap<Kysely<Database>, { generation: number; counts: Promise<TaskCounts> }>();

async function queryTaskCounts(db: Kysely<Database>): Promise<TaskCounts> {
  const rows = await db
    .selectFrom("models")
    .select((eb) => ["pipeline_tag", eb.fn.countAll<number>().as("n")])
    .where("pipeline_tag", "is not", null)
    .groupBy("pipeline_tag")
    .execute();
  const counts: TaskCounts = {};
  for (const row of rows) if (row.pipeline_tag !== null) counts[row.pipeline_tag] = Number(row.n);
  return counts;
}

/**
 * How many catalogue models carry each pipeline tag. The grouped count scans the models table, so
 * it is kept until the catalogue generation changes (every import that changes data bumps it).
 */
export async function getTaskModelCounts(db: Kysely<Database>): Promise<TaskCounts> {
  const generation = await getCatalogueGeneration(db);
  const cached = caches.get(db);
  if (cached && cached.generation === generation) return cached.counts;
  const counts = queryTaskCounts(db);
  caches.set(db, { generation, counts });
  counts.catch(() => {
    if (caches.get(db)?.counts === counts) caches.delete(db);
  });
  return counts;
}

/** Which of the given model ids exist in the catalogue (exact ids), for linking example models. */
export async function findCatalogueModelIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("models").select("id").where("id", "in", [...new Set(ids)]).execute();
  return new Set(rows.map((r) => r.id));
}

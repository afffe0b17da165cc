import { TASKS_DATA } from "@huggingface/tasks";
import { type Kysely, sql } from "kysely";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import { likePattern } from "#app/db/like-pattern.ts";
import { getMeta, setMeta } from "#app/db/queries/meta.server.ts";
import { SUMMARY_COLUMNS, toSummary } from "#app/db/queries/models.server.ts";
import type { Database } from "#app/db/schema.ts";

/**
 * Spaces (demos hosted on the Hugging Face Hub) known to the catalogue: the ones model records
 * name (written by the importer) and the ones task guides recommend (TASKS_DATA[task].spaces).
 */

export const SPACE_SOURCE_TASKS = "task-data";

export interface TaskSpace {
  id: string;
  task: string;
  description: string | null;
}

/** Every Space the task guides of the pinned @huggingface/tasks list, with the task's words for it. */
export function taskSpacesFromLibrary(): TaskSpace[] {
  const out: TaskSpace[] = [];
  for (const [task, data] of Object.entries(TASKS_DATA)) {
    for (const s of data?.spaces ?? []) {
      if (typeof s.id === "string" && /^[\w.-]+\/[\w.-]+$/.test(s.id)) out.push({ id: s.id, task, description: s.description ?? null });
    }
  }
  return out;
}

/**
 * Records the task guides' Spaces. Idempotent: a fingerprint of the list is kept in `meta`, so
 * calling it on every start costs one look-up; when the library changes, the links are replaced.
 */
export async function syncTaskSpaces(db: Kysely<Database>): Promise<{ changed: boolean; spaces: number }> {
  const list = taskSpacesFromLibrary();
  const fingerprint = JSON.stringify(list);
  if ((await getMeta(db, "task_spaces")) === fingerprint) return { changed: false, spaces: list.length };
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("space_tasks").execute();
    const spaces = [...new Map(list.map((s) => [s.id, s])).values()];
    for (const s of spaces) {
      await trx
        .insertInto("spaces")
        .values({ id: s.id, author: s.id.split("/")[0]!, title: null, sdk: null, source: SPACE_SOURCE_TASKS })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
    }
    if (list.length) {
      await trx
        .insertInto("space_tasks")
        .values(list.map((s) => ({ space_id: s.id, task: s.task, description: s.description })))
        .onConflict((oc) => oc.columns(["space_id", "task"]).doNothing())
        .execute();
    }
    // Task Spaces no guide lists any more, and no model names, are dropped.
    await trx
      .deleteFrom("spaces")
      .where("source", "=", SPACE_SOURCE_TASKS)
      .where("id", "not in", (eb) => eb.selectFrom("space_tasks").select("space_id"))
      .where("id", "not in", (eb) => eb.selectFrom("space_models").select("space_id"))
      .execute();
    await setMeta(trx, "task_spaces", fingerprint);
  });
  return { changed: true, spaces: list.length };
}

const synced = new WeakMap<Kysely<Database>, Promise<unknown>>();

/** syncTaskSpaces once per process and database, for routes that read Spaces. */
export function ensureTaskSpaces(db: Kysely<Database>): Promise<unknown> {
  let p = synced.get(db);
  if (!p) {
    p = syncTaskSpaces(db).catch((e: unknown) => {
      synced.delete(db);
      throw e;
    });
    synced.set(db, p);
  }
  return p;
}

export interface SpaceListItem {
  id: string;
  author: string;
  source: string;
  tasks: string[];
  description: string | null;
  modelCount: number;
  models: string[];
}

export interface SpaceListQuery {
  search?: string | null;
  /** Only this author's Spaces. */
  author?: string | null;
  model?: string | null;
  task?: string | null;
  offset: number;
  limit: number;
}

/** Spaces, most-linked first, with their first few models and the tasks that recommend them. */
export async function listSpaces(db: Kysely<Database>, q: SpaceListQuery): Promise<{ spaces: SpaceListItem[]; total: number }> {
  let base = db.selectFrom("spaces as s");
  if (q.search) base = base.where(sql<boolean>`lower(s.id) like ${likePattern(q.search)} escape '\\'`);
  if (q.author) base = base.where("s.author", "=", q.author);
  if (q.model) base = base.where("s.id", "in", (eb) => eb.selectFrom("space_models").select("space_id").where("model_id", "=", q.model!));
  if (q.task) base = base.where("s.id", "in", (eb) => eb.selectFrom("space_tasks").select("space_id").where("task", "=", q.task!));
  const [rows, total] = await Promise.all([
    base
      .select((eb) => [
        "s.id",
        "s.author",
        "s.source",
        eb.selectFrom("space_models as sm").select((e) => e.fn.countAll<number>().as("n")).whereRef("sm.space_id", "=", "s.id").as("model_count"),
      ])
      .orderBy("model_count", "desc")
      .orderBy("s.id")
      .offset(q.offset)
      .limit(q.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => r.id);
  const [links, tasks] = ids.length
    ? await Promise.all([
        db
          .selectFrom("space_models as sm")
          .innerJoin("models as m", "m.id", "sm.model_id")
          .select(["sm.space_id", "sm.model_id", "m.downloads"])
          .where("sm.space_id", "in", ids)
          .orderBy("m.downloads", "desc")
          .execute(),
        db.selectFrom("space_tasks").select(["space_id", "task", "description"]).where("space_id", "in", ids).orderBy("task").execute(),
      ])
    : [[], []];
  const spaces = rows.map((r): SpaceListItem => {
    const t = tasks.filter((x) => x.space_id === r.id);
    return {
      id: r.id,
      author: r.author,
      source: r.source,
      tasks: t.map((x) => x.task),
      description: t.find((x) => x.description)?.description ?? null,
      modelCount: Number(r.model_count ?? 0),
      models: links.filter((l) => l.space_id === r.id).slice(0, 3).map((l) => l.model_id),
    };
  });
  return { spaces, total: Number(total.n) };
}

export interface SpaceDetail {
  id: string;
  author: string;
  source: string;
  tasks: Array<{ task: string; description: string | null }>;
  /** Linked models that are in the catalogue, most downloaded first. */
  models: CatalogModelSummary[];
  /** How many models link to it in all (some may be beyond the listed ones). */
  modelCount: number;
}

export async function getSpace(db: Kysely<Database>, id: string, modelLimit = 100): Promise<SpaceDetail | null> {
  const space = await db.selectFrom("spaces").select(["id", "author", "source"]).where("id", "=", id).executeTakeFirst();
  if (!space) return null;
  const [tasks, models, count] = await Promise.all([
    db.selectFrom("space_tasks").select(["task", "description"]).where("space_id", "=", id).orderBy("task").execute(),
    db
      .selectFrom("space_models as sm")
      .innerJoin("models", "models.id", "sm.model_id")
      .select(SUMMARY_COLUMNS)
      .where("sm.space_id", "=", id)
      .orderBy("models.downloads", "desc")
      .orderBy("models.id")
      .limit(modelLimit)
      .execute(),
    db.selectFrom("space_models").select((eb) => eb.fn.countAll<number>().as("n")).where("space_id", "=", id).executeTakeFirstOrThrow(),
  ]);
  return { ...space, tasks, models: models.map(toSummary), modelCount: Number(count.n) };
}

/** The Spaces that use a model, for its page: ids in name order. */
export async function listSpacesForModel(db: Kysely<Database>, modelId: string, limit = 100): Promise<string[]> {
  const rows = await db.selectFrom("space_models").select("space_id").where("model_id", "=", modelId).orderBy("space_id").limit(limit).execute();
  return rows.map((r) => r.space_id);
}

/** How many Spaces use each of the given models, for listing rows. */
export async function countSpacesForModels(db: Kysely<Database>, modelIds: string[]): Promise<Record<string, number>> {
  if (!modelIds.length) return {};
  const rows = await db
    .selectFrom("space_models")
    .select((eb) => ["model_id", eb.fn.countAll<number>().as("n")])
    .where("model_id", "in", modelIds)
    .groupBy("model_id")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.model_id, Number(r.n)]));
}

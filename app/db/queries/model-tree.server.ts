import type { Kysely } from "kysely";
import { BASE_MODEL_RELATIONS, type BaseModelRelation } from "#app/catalog/model-record.ts";
import type { Database } from "#app/db/schema.ts";

export interface DerivedModel {
  id: string;
  pipelineTag: string | null;
  downloads: number;
  likes: number;
}

export interface DerivedGroup {
  relation: BaseModelRelation;
  count: number;
  /** The most downloaded models of this relation, at most `perRelation`. */
  models: DerivedModel[];
}

const RELATION_ORDER: readonly BaseModelRelation[] = [...BASE_MODEL_RELATIONS, "derived"];

function isRelation(value: string): value is BaseModelRelation {
  return (RELATION_ORDER as readonly string[]).includes(value);
}

/**
 * Models whose base is `id` (from base_model in card data and base_model:<relation>:<id> tags),
 * grouped by relation in a fixed order (finetune, quantized, adapter, merge, derived), each with
 * its total count and its most downloaded members. Relations nobody uses are left out.
 */
export async function listDerivedModels(db: Kysely<Database>, id: string, perRelation = 8): Promise<DerivedGroup[]> {
  const counts = await db
    .selectFrom("model_bases")
    .select(["relation", (eb) => eb.fn.countAll<number>().as("n")])
    .where("base_id", "=", id)
    .groupBy("relation")
    .execute();
  const groups: DerivedGroup[] = [];
  for (const relation of RELATION_ORDER) {
    const row = counts.find((c) => c.relation === relation);
    const count = row ? Number(row.n) : 0;
    if (count === 0) continue;
    const models = await db
      .selectFrom("model_bases")
      .innerJoin("models", "models.rid", "model_bases.rid")
      .select(["models.id", "models.pipeline_tag", "models.downloads", "models.likes"])
      .where("model_bases.base_id", "=", id)
      .where("model_bases.relation", "=", relation)
      .orderBy("models.downloads", "desc")
      .orderBy("models.id")
      .limit(perRelation)
      .execute();
    groups.push({
      relation,
      count,
      models: models.map((m) => ({ id: m.id, pipelineTag: m.pipeline_tag, downloads: Number(m.downloads), likes: Number(m.likes) })),
    });
  }
  // A relation the importer wrote that this build does not know still counts, as "derived".
  const unknown = counts.filter((c) => !isRelation(c.relation)).reduce((sum, c) => sum + Number(c.n), 0);
  if (unknown > 0) {
    const derived = groups.find((g) => g.relation === "derived");
    if (derived) derived.count += unknown;
    else groups.push({ relation: "derived", count: unknown, models: [] });
  }
  return groups;
}

export interface SpaceUsingModel {
  id: string;
  title: string | null;
  sdk: string | null;
}

/** Spaces that use the model (ordered by id, at most `limit`) and how many there are in all. */
export async function listSpacesUsingModel(
  db: Kysely<Database>,
  id: string,
  limit = 24,
): Promise<{ total: number; spaces: SpaceUsingModel[] }> {
  const [total, rows] = await Promise.all([
    db
      .selectFrom("space_models")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("model_id", "=", id)
      .executeTakeFirst(),
    db
      .selectFrom("space_models")
      .leftJoin("spaces", "spaces.id", "space_models.space_id")
      .select(["space_models.space_id as id", "spaces.title", "spaces.sdk"])
      .where("space_models.model_id", "=", id)
      .orderBy("space_models.space_id")
      .limit(limit)
      .execute(),
  ]);
  return { total: Number(total?.n ?? 0), spaces: rows.map((r) => ({ id: r.id, title: r.title ?? null, sdk: r.sdk ?? null })) };
}

/** Which of these ids the catalogue holds, so links stay on this site when they can. */
export async function existingModelIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("models").select("id").where("id", "in", [...new Set(ids)].slice(0, 500)).execute();
  return new Set(rows.map((r) => r.id));
}

/** An author's most downloaded models, for suggestions when an id is not found. */
export async function listModelsByAuthor(db: Kysely<Database>, author: string, limit = 5): Promise<string[]> {
  const rows = await db.selectFrom("models").select("id").where("author", "=", author).orderBy("downloads", "desc").limit(limit).execute();
  return rows.map((r) => r.id);
}

import type { Kysely, Selectable } from "kysely";
import type {
  BaseModelLink,
  CatalogModel,
  CatalogModelSummary,
  ChatTemplateIssue,
  ChatTemplateSource,
  ChatTemplateStatus,
  GatedMode,
  ModelSibling,
  ProviderMapping,
} from "#app/catalog/model-record.ts";
import { baseModelsFromTags, isTransformersInfoSource, ownPipelineTag } from "#app/catalog/model-record.ts";
import type { ListExtras } from "#app/catalog/hub-api.ts";
import type { Database, ModelsTable } from "#app/db/schema.ts";
import { type DerivationInput, deriveTransformersInfo } from "#app/catalog/transformers-info.ts";

const parse = <T>(s: string | null | undefined, fallback: T): T => (s == null ? fallback : (JSON.parse(s) as T));

const SUMMARY_COLUMNS = [
  "models.id", "models.author", "models.pipeline_tag", "models.pipeline_tag_from", "models.library_name", "models.license", "models.tags",
  "models.downloads", "models.likes", "models.trending_score", "models.params", "models.created_at",
  "models.last_modified", "models.gated", "models.stats_as_of", "models.providers", "models.chat_template_status",
] as const;

/** The columns of one listing row, as both engines return them. */
export type SummaryRow = Pick<
  Selectable<ModelsTable>,
  | "id" | "author" | "pipeline_tag" | "pipeline_tag_from" | "library_name" | "license" | "tags" | "downloads" | "likes" | "trending_score"
  | "params" | "created_at" | "last_modified" | "gated" | "stats_as_of" | "providers" | "chat_template_status"
>;

function toGated(v: string): GatedMode {
  return v === "auto" || v === "manual" ? v : false;
}

export function toSummary(r: SummaryRow): CatalogModelSummary {
  return {
    id: r.id,
    author: r.author,
    pipelineTag: r.pipeline_tag,
    pipelineTagFrom: r.pipeline_tag_from === "mapping" ? "mapping" : null,
    libraryName: r.library_name,
    license: r.license,
    tags: parse<string[]>(r.tags, []),
    downloads: Number(r.downloads),
    likes: Number(r.likes),
    trendingScore: Number(r.trending_score),
    params: r.params == null ? null : Number(r.params),
    createdAt: r.created_at,
    lastModified: r.last_modified,
    gated: toGated(r.gated),
    statsAsOf: r.stats_as_of,
    providers: parse<string[]>(r.providers, []),
    chatTemplateStatus: (r.chat_template_status as ChatTemplateStatus | null) ?? null,
  };
}

/** One model with everything a model page, the Hub-shaped API and the inference gateway need. */
export async function getModelById(db: Kysely<Database>, id: string): Promise<CatalogModel | null> {
  const row = await db
    .selectFrom("models")
    .leftJoin("model_details", "model_details.rid", "models.rid")
    .select([
      ...SUMMARY_COLUMNS,
      "model_details.sha", "model_details.languages", "model_details.datasets", "model_details.base_models",
      "model_details.card_md", "model_details.card_data", "model_details.config", "model_details.chat_template",
      "model_details.bos_token", "model_details.eos_token", "model_details.chat_template_issue", "model_details.siblings",
      "model_details.safetensors", "model_details.gguf", "model_details.widget_data", "model_details.transformers_info",
      "model_details.transformers_info_source",
      "model_details.model_index", "model_details.spaces", "model_details.provider_mapping",
    ])
    .where("models.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const summary = toSummary(row);
  const tags = summary.tags;
  return {
    ...summary,
    sha: row.sha ?? null,
    languages: parse<string[]>(row.languages, tags.filter((t) => /^[a-z]{2}$/.test(t))),
    datasets: parse<string[]>(row.datasets, tags.filter((t) => t.startsWith("dataset:")).map((t) => t.slice(8))),
    // A list-API row has no details row; its tags still name its bases.
    baseModels: parse<BaseModelLink[]>(row.base_models, [...baseModelsFromTags(tags)].map(([id, relation]) => ({ id, relation }))),
    cardMarkdown: row.card_md ?? null,
    cardData: parse<Record<string, unknown> | null>(row.card_data, null),
    config: parse<Record<string, unknown> | null>(row.config, null),
    chatTemplate: parse<ChatTemplateSource | null>(row.chat_template, null),
    bosToken: row.bos_token ?? null,
    eosToken: row.eos_token ?? null,
    chatTemplateIssue: parse<ChatTemplateIssue | null>(row.chat_template_issue, null),
    siblings: parse<ModelSibling[]>(row.siblings, []),
    safetensors: parse<Record<string, unknown> | null>(row.safetensors, null),
    gguf: parse<Record<string, unknown> | null>(row.gguf, null),
    widgetData: parse<unknown[] | null>(row.widget_data, null),
    ...storedOrDerivedTransformersInfo(row.transformers_info, row.transformers_info_source, {
      config: parse<Record<string, unknown> | null>(row.config, null),
      tags,
      pipelineTag: ownPipelineTag(summary),
      libraryName: summary.libraryName,
    }),
    modelIndex: parse<unknown[] | null>(row.model_index, null),
    inferenceProviderMapping: parse<ProviderMapping[]>(row.provider_mapping, []),
    spaces: parse<string[]>(row.spaces, []),
  };
}

/**
 * The stored transformersInfo, or, for a row imported before the import derived it (a database
 * from an earlier version), the same derivation done on read, so pages and the API still agree.
 */
function storedOrDerivedTransformersInfo(
  stored: string | null | undefined,
  source: string | null | undefined,
  input: DerivationInput,
): Pick<CatalogModel, "transformersInfo" | "transformersInfoSource"> {
  const info = parse<Record<string, unknown> | null>(stored, null);
  if (info) return { transformersInfo: info, transformersInfoSource: isTransformersInfoSource(source) ? source : null };
  const derived = deriveTransformersInfo(input);
  return derived ? { transformersInfo: { ...derived.info }, transformersInfoSource: derived.source } : { transformersInfo: null, transformersInfoSource: null };
}

/** Ids that look like the one asked for, for "did you mean" on a 404. */
export async function findSimilarModelIds(db: Kysely<Database>, id: string, limit = 5): Promise<string[]> {
  const name = id.split("/").pop() ?? id;
  const needle = name.slice(0, Math.max(3, Math.min(name.length, 12)));
  if (needle.length < 3) return [];
  const rows = await db
    .selectFrom("models")
    .select("id")
    .where("id", "like", `%${needle.replace(/[%_\\]/g, (c) => `\\${c}`)}%`)
    .orderBy("downloads", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export type ListSort = "trending" | "downloads" | "likes" | "created" | "updated";

const SORT_COLUMN = {
  trending: "trending_score",
  downloads: "downloads",
  likes: "likes",
  created: "created_at",
  updated: "last_modified",
} as const satisfies Record<ListSort, string>;

/** A plain sorted page of models; the catalogue listing builds its filtered queries on top. */
export async function listModelPage(
  db: Kysely<Database>,
  opts: { sort: ListSort; offset: number; limit: number },
): Promise<CatalogModelSummary[]> {
  const rows = await db
    .selectFrom("models")
    .select(SUMMARY_COLUMNS)
    .orderBy(`models.${SORT_COLUMN[opts.sort]}`, (ob) => ob.desc().nullsLast())
    .orderBy("models.rid")
    .offset(opts.offset)
    .limit(opts.limit)
    .execute();
  return rows.map(toSummary);
}

export { SUMMARY_COLUMNS };

/** sha, file list, card metadata and config for a page of models (the API's full/cardData/config). */
export async function getListExtras(db: Kysely<Database>, ids: string[]): Promise<Map<string, ListExtras>> {
  const out = new Map<string, ListExtras>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom("models")
    .innerJoin("model_details", "model_details.rid", "models.rid")
    .select(["models.id", "model_details.sha", "model_details.siblings", "model_details.card_data", "model_details.config"])
    .where("models.id", "in", ids)
    .execute();
  for (const r of rows) {
    const siblings = JSON.parse(r.siblings) as Array<{ rfilename: string }>;
    out.set(r.id, {
      sha: r.sha,
      siblings: siblings.map((s) => ({ rfilename: s.rfilename })),
      cardData: r.card_data == null ? null : (JSON.parse(r.card_data) as Record<string, unknown>),
      config: r.config == null ? null : (JSON.parse(r.config) as Record<string, unknown>),
    });
  }
  return out;
}

/** Which of these ids the catalogue holds, in the order given. */
export async function existingModelIds(db: Kysely<Database>, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("models").select("id").where("id", "in", [...ids]).execute();
  const held = new Set(rows.map((r) => r.id));
  return ids.filter((id) => held.has(id));
}

export interface ProviderMappedModel {
  id: string;
  author: string;
  createdAt: string | null;
  pipelineTag: string | null;
  mappings: ProviderMapping[];
  config: Record<string, unknown> | null;
}

/** Every model with an inference-provider mapping (a few hundred), by id, for GET /v1/models. */
export async function listProviderMappedModels(db: Kysely<Database>): Promise<ProviderMappedModel[]> {
  const rows = await db
    .selectFrom("models")
    .innerJoin("model_details", "model_details.rid", "models.rid")
    .select(["models.id", "models.author", "models.created_at", "models.pipeline_tag", "model_details.provider_mapping", "model_details.config"])
    .where("model_details.provider_mapping", "is not", null)
    .where("model_details.provider_mapping", "!=", "[]")
    .orderBy("models.id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    author: r.author,
    createdAt: r.created_at,
    pipelineTag: r.pipeline_tag,
    mappings: parse<ProviderMapping[]>(r.provider_mapping, []),
    config: parse<Record<string, unknown> | null>(r.config, null),
  }));
}

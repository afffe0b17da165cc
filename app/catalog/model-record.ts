/**
 * The catalogue's view of one model: what the importer writes and what pages, the API and the
 * inference gateway read. Field names follow the app's camelCase; the Hub-shaped API maps them back.
 */

/**
 * Where a stored `transformersInfo` came from: the imported record ("hub"), or derived at import from
 * the config, from the model-type tag and pipeline tag ("tags"), from the task alone ("task"), or
 * the Hub's bare AutoModel when nothing names a class ("default"). See ADR 0014.
 */
export const TRANSFORMERS_INFO_SOURCES = ["hub", "config", "tags", "task", "default"] as const;
export type TransformersInfoSource = (typeof TRANSFORMERS_INFO_SOURCES)[number];

export function isTransformersInfoSource(v: unknown): v is TransformersInfoSource {
  return typeof v === "string" && (TRANSFORMERS_INFO_SOURCES as readonly string[]).includes(v);
}

export type GatedMode = false | "auto" | "manual";

/** How a derived model relates to its base, from `base_model:<relation>:<id>` tags. */
export const BASE_MODEL_RELATIONS = ["finetune", "quantized", "adapter", "merge"] as const;
export type BaseModelRelation = (typeof BASE_MODEL_RELATIONS)[number] | "derived";

export interface BaseModelLink {
  id: string;
  relation: BaseModelRelation;
}

function isBaseModelRelation(v: string): v is (typeof BASE_MODEL_RELATIONS)[number] {
  return (BASE_MODEL_RELATIONS as readonly string[]).includes(v);
}

/**
 * The bases a model's tags name: `base_model:<relation>:<id>`, or `base_model:<id>` (relation
 * unknown, "derived"). A list-API row carries only tags, so this is its whole tree.
 */
export function baseModelsFromTags(tags: readonly string[]): Map<string, BaseModelRelation> {
  const relations = new Map<string, BaseModelRelation>();
  for (const t of tags) {
    if (!t.startsWith("base_model:")) continue;
    const rest = t.slice("base_model:".length);
    const [first, ...others] = rest.split(":");
    if (others.length && first !== undefined && isBaseModelRelation(first)) {
      relations.set(others.join(":"), first);
    } else if (!relations.has(rest)) {
      relations.set(rest, "derived");
    }
  }
  relations.delete("");
  return relations;
}

export type ProviderStatus = "live" | "staging" | null;

export interface ProviderMapping {
  provider: string;
  providerId: string;
  task: string;
  status: ProviderStatus;
  adapter: string | null;
  adapterWeightsPath: string | null;
}

export interface ModelSibling {
  rfilename: string;
  /** Bytes, when the source recorded it. */
  size: number | null;
}

/** A tokenizer_config `chat_template` is either one template or a list of named ones. */
export type ChatTemplateSource = string | Array<{ name: string; template: string }>;

export interface ChatTemplateIssue {
  message: string;
  line: number | null;
  column: number | null;
  templateName: string | null;
}

export type ChatTemplateStatus = "ok" | "error";

export interface CatalogModelSummary {
  id: string;
  author: string;
  /** The record's pipeline tag, else the one task its provider mappings name (see pipelineTagFrom). */
  pipelineTag: string | null;
  /** "mapping" when pipelineTag comes from the provider mappings, the record naming none; absent or null when it is the record's own. */
  pipelineTagFrom?: "mapping" | null;
  libraryName: string | null;
  license: string | null;
  tags: string[];
  downloads: number;
  likes: number;
  trendingScore: number;
  /** Total parameters (safetensors or GGUF), when known. */
  params: number | null;
  createdAt: string | null;
  lastModified: string | null;
  gated: GatedMode;
  /** The date the download and like counts were taken, or null when they are live. */
  statsAsOf: string | null;
  providers: string[];
  chatTemplateStatus: ChatTemplateStatus | null;
}

export interface CatalogModel extends CatalogModelSummary {
  sha: string | null;
  languages: string[];
  datasets: string[];
  baseModels: BaseModelLink[];
  cardMarkdown: string | null;
  cardData: Record<string, unknown> | null;
  /** config.json plus the Hub's merged extras (tokenizer_config, processor_config, …). */
  config: Record<string, unknown> | null;
  chatTemplate: ChatTemplateSource | null;
  bosToken: string | null;
  eosToken: string | null;
  chatTemplateIssue: ChatTemplateIssue | null;
  siblings: ModelSibling[];
  safetensors: Record<string, unknown> | null;
  gguf: Record<string, unknown> | null;
  widgetData: unknown[] | null;
  transformersInfo: Record<string, unknown> | null;
  /**
   * Where `transformersInfo` came from: "hub" (the imported record), or how it was derived at import
   * (ADR 0014). Null or absent when there is none.
   */
  transformersInfoSource?: TransformersInfoSource | null;
  modelIndex: unknown[] | null;
  inferenceProviderMapping: ProviderMapping[];
  spaces: string[];
}

/** The pipeline tag the record itself names, which the Hub-shaped answers give as the Hub would. */
export function ownPipelineTag(m: Pick<CatalogModelSummary, "pipelineTag" | "pipelineTagFrom">): string | null {
  return m.pipelineTagFrom === "mapping" ? null : m.pipelineTag;
}

/**
 * Whether the catalogue holds this model's counts. A Hub dump carries its snapshot date and live
 * records carry real counts; a model that came only from a local folder or a card has neither, and
 * its zeros are the importer's defaults, not counts. A live record with no downloads and no likes
 * at all is shown without counts too: leaving a true zero out says nothing false.
 */
export function hasKnownCounts(model: Pick<CatalogModelSummary, "downloads" | "likes" | "statsAsOf">): boolean {
  return model.statsAsOf !== null || model.downloads > 0 || model.likes > 0;
}

import { type CatalogModel, type CatalogModelSummary, type GatedMode, type ProviderMapping, hasKnownCounts, ownPipelineTag } from "#app/catalog/model-record.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import { ggufHeaderOf } from "#app/catalog/gguf.ts";

/**
 * The Hub's JSON shapes for `GET /api/models` and `GET /api/models/{id}`, built from an explicit
 * field list so nothing internal leaks and the names match what Hub clients read.
 */

/** Hub sort names and the catalogue sort each maps to. */
export const HUB_SORTS = {
  downloads: "downloads",
  likes: "likes",
  createdAt: "created",
  lastModified: "updated",
  trendingScore: "trending",
} as const satisfies Record<string, SortKey>;
export type HubSort = keyof typeof HUB_SORTS;

/** Fields `expand[]=` may ask for on /api/models/{id} and /api/models. */
export const HUB_EXPANDABLE = [
  "author",
  "cardData",
  "chatTemplateStatus",
  "config",
  "createdAt",
  "disabled",
  "downloads",
  "gated",
  "gguf",
  "inferenceProviderMapping",
  "lastModified",
  "library_name",
  "likes",
  "model-index",
  "pipeline_tag",
  "private",
  "safetensors",
  "sha",
  "siblings",
  "spaces",
  "tags",
  "transformersInfo",
  "trendingScore",
  "widgetData",
] as const;
export type HubExpandable = (typeof HUB_EXPANDABLE)[number];

/**
 * A stable 24-hex-digit `_id` (the Hub's are MongoDB ObjectIds). Clients such as @huggingface/hub
 * expose it as the model's `id`, so it must not change between requests.
 */
export function hubObjectId(modelId: string): string {
  let out = "";
  for (let seed = 0; out.length < 24; seed++) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < modelId.length; i++) {
      h ^= modelId.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    out += (h >>> 0).toString(16).padStart(8, "0");
  }
  return out.slice(0, 24);
}

export interface HubProviderEntry {
  /** Left out when the source did not record it (433 of the bundled catalogue's 506 mappings). */
  status?: "live" | "staging";
  providerId: string;
  task: string;
  adapter?: string;
  adapterWeightsPath?: string;
}

/**
 * The dict keyed by provider that @huggingface/inference 3.13.1 reads (it indexes
 * `json.inferenceProviderMapping[provider]`, and takes the first key for provider "auto").
 * The Hub always states a status; a status the source did not record is left out rather than
 * served as "live", which the catalogue does not know. The library only reads it to warn on
 * "staging".
 */
export function toHubProviderMapping(list: ProviderMapping[]): Record<string, HubProviderEntry> {
  const out: Record<string, HubProviderEntry> = {};
  for (const m of list) {
    const e: HubProviderEntry = { ...(m.status ? { status: m.status } : {}), providerId: m.providerId, task: m.task };
    if (m.adapter) e.adapter = m.adapter;
    if (m.adapterWeightsPath) e.adapterWeightsPath = m.adapterWeightsPath;
    out[m.provider] = e;
  }
  return out;
}

/** What a list item may add when asked (`full`, `cardData`, `config`): read from model_details. */
export interface ListExtras {
  sha: string | null;
  siblings: Array<{ rfilename: string }>;
  cardData: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
}

/**
 * Whether the catalogue holds the model's full Hub record, told by its commit sha as live details
 * tell it (app/import/live-details.server.ts). A listing row carries neither `gated` nor a file
 * list: the importer's `gated: "false"` and an empty list there are defaults, not facts, and are
 * left out like unknown counts.
 */
const knowsRecord = (sha: string | null | undefined): boolean => sha != null;

/** The gate, unless it is a listing row's "not gated" default; a gate a source names is a fact. */
function knownGate(sha: string | null | undefined, gated: GatedMode): GatedMode | undefined {
  return knowsRecord(sha) || gated !== false ? gated : undefined;
}

/** A list (files, Spaces), unless it is a listing row's empty default: such a row says nothing of it. */
function knownList<T>(sha: string | null | undefined, items: readonly T[]): readonly T[] | undefined {
  return knowsRecord(sha) || items.length > 0 ? items : undefined;
}

/**
 * `downloads` and `likes` are left out for a model whose counts the catalogue does not hold
 * (hasKnownCounts), as fields a model lacks are: a zero there would be the importer's default.
 */
export function toHubListItem(
  m: CatalogModelSummary,
  opts: { full: boolean; cardData: boolean; config: boolean; expand: HubExpandable[]; extras: ListExtras | null },
): Record<string, unknown> {
  const base: Record<string, unknown> = { _id: hubObjectId(m.id), id: m.id };
  const all: Record<string, () => unknown> = {
    author: () => m.author,
    createdAt: () => m.createdAt,
    downloads: () => (hasKnownCounts(m) ? m.downloads : undefined),
    gated: () => knownGate(opts.extras?.sha, m.gated),
    lastModified: () => m.lastModified,
    library_name: () => m.libraryName ?? undefined,
    likes: () => (hasKnownCounts(m) ? m.likes : undefined),
    pipeline_tag: () => ownPipelineTag(m) ?? undefined,
    private: () => false,
    disabled: () => false,
    tags: () => m.tags,
    trendingScore: () => (hasKnownCounts(m) ? m.trendingScore : undefined),
    sha: () => opts.extras?.sha ?? undefined,
    siblings: () => knownList(opts.extras?.sha, opts.extras?.siblings ?? []),
    cardData: () => opts.extras?.cardData ?? undefined,
    config: () => opts.extras?.config ?? undefined,
    chatTemplateStatus: () => m.chatTemplateStatus,
  };
  let fields: string[];
  if (opts.expand.length) {
    fields = opts.expand;
  } else {
    fields = ["likes", "trendingScore", "private", "downloads", "tags", "pipeline_tag", "library_name", "createdAt"];
    if (opts.full) fields.push("author", "gated", "lastModified", "disabled", "sha", "siblings");
    if (opts.cardData) fields.push("cardData");
    if (opts.config) fields.push("config");
  }
  for (const f of fields) {
    const get = all[f];
    const v = get ? get() : undefined;
    if (v !== undefined) base[f] = v;
  }
  if (!opts.expand.length) base["modelId"] = m.id;
  return base;
}

/**
 * The `/api/models/{id}` object. Without `expand`, the Hub's default field set plus
 * `chatTemplateStatus` (whether the chat template rendered in validation: "ok", "error" or null
 * when there is none) and, when `transformersInfo` was derived rather than imported,
 * `transformersInfoSource` ("config", "tags", "task" or "default"); with `expand`, `_id`, `id` and exactly the fields asked for.
 */
export function toHubModelInfo(m: CatalogModel, expand: HubExpandable[], spaces: string[]): Record<string, unknown> {
  const all: Record<HubExpandable, () => unknown> = {
    author: () => m.author,
    cardData: () => m.cardData ?? undefined,
    chatTemplateStatus: () => m.chatTemplateStatus,
    config: () => m.config ?? undefined,
    createdAt: () => m.createdAt,
    disabled: () => false,
    downloads: () => (hasKnownCounts(m) ? m.downloads : undefined),
    gated: () => knownGate(m.sha, m.gated),
    // The Hub's six keys only, from an imported GGUF header; absent when none was imported.
    gguf: () => ggufHeaderOf(m) ?? undefined,
    inferenceProviderMapping: () => toHubProviderMapping(m.inferenceProviderMapping),
    lastModified: () => m.lastModified,
    library_name: () => m.libraryName ?? undefined,
    likes: () => (hasKnownCounts(m) ? m.likes : undefined),
    "model-index": () => m.modelIndex ?? undefined,
    pipeline_tag: () => ownPipelineTag(m) ?? undefined,
    private: () => false,
    safetensors: () => m.safetensors ?? undefined,
    sha: () => m.sha ?? undefined,
    siblings: () => knownList(m.sha, m.siblings)?.map((s) => (s.size == null ? { rfilename: s.rfilename } : { rfilename: s.rfilename, size: s.size })),
    spaces: () => knownList(m.sha, spaces),
    tags: () => m.tags,
    transformersInfo: () => m.transformersInfo ?? undefined,
    trendingScore: () => (hasKnownCounts(m) ? m.trendingScore : undefined),
    widgetData: () => m.widgetData ?? undefined,
  };
  const out: Record<string, unknown> = { _id: hubObjectId(m.id), id: m.id };
  const fields: HubExpandable[] = expand.length
    ? expand
    : [
        "author", "sha", "lastModified", "private", "disabled", "gated", "pipeline_tag", "tags", "downloads", "library_name",
        "likes", "model-index", "config", "cardData", "transformersInfo", "siblings", "spaces", "createdAt", "safetensors",
        "widgetData", "gguf", "chatTemplateStatus",
      ];
  if (!expand.length) out["modelId"] = m.id;
  for (const f of fields) {
    const v = all[f]();
    if (v !== undefined) out[f] = v;
  }
  if (!expand.length && m.chatTemplateIssue) out["chatTemplateIssue"] = m.chatTemplateIssue;
  // Not a Hub field: says that `transformersInfo` was derived at import, and from what (ADR 0014).
  if (!expand.length && m.transformersInfo && m.transformersInfoSource && m.transformersInfoSource !== "hub") {
    out["transformersInfoSource"] = m.transformersInfoSource;
  }
  return out;
}

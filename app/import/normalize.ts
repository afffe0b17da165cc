import { isLanguageCode } from "#app/catalog/languages.ts";
import type {
  BaseModelLink,
  BaseModelRelation,
  ChatTemplateSource,
  ModelSibling,
  ProviderMapping,
} from "#app/catalog/model-record.ts";
import { BASE_MODEL_RELATIONS, baseModelsFromTags } from "#app/catalog/model-record.ts";
import type { ImportRecord } from "#app/import/record-schema.ts";

/**
 * What one record says about a model, split into the fields it actually carries. `undefined`
 * means "this record does not speak about that field", so partial records never erase data.
 */
export interface NormalizedRecord {
  id: string;
  author?: string;
  pipelineTag?: string | null;
  libraryName?: string | null;
  tags?: string[];
  downloads?: number;
  likes?: number;
  createdAt?: string | null;
  lastModified?: string | null;
  gated?: "false" | "auto" | "manual";
  sha?: string | null;
  cardMarkdown?: string | null;
  cardData?: Record<string, unknown> | null;
  config?: Record<string, unknown> | null;
  chatTemplate?: ChatTemplateSource | null;
  bosToken?: string | null;
  eosToken?: string | null;
  siblings?: ModelSibling[];
  safetensors?: Record<string, unknown> | null;
  gguf?: Record<string, unknown> | null;
  widgetData?: unknown[] | null;
  transformersInfo?: Record<string, unknown> | null;
  modelIndex?: unknown[] | null;
  spaces?: string[];
  providers?: ProviderMapping[];
}

function tokenText(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (v && typeof v === "object" && "content" in v && typeof v.content === "string") return v.content;
  return null;
}

/** Reads `chat_template` as tokenizer_config.json stores it: a string or a list of {name, template}. */
export function readChatTemplate(v: unknown): ChatTemplateSource | null {
  if (typeof v === "string") return v.length ? v : null;
  if (Array.isArray(v)) {
    const named = v.flatMap((e: unknown) => {
      if (e && typeof e === "object" && "name" in e && "template" in e) {
        const { name, template } = e;
        if (typeof name === "string" && typeof template === "string") return [{ name, template }];
      }
      return [];
    });
    return named.length ? named : null;
  }
  return null;
}

export function readTokenizerSettings(config: Record<string, unknown> | null | undefined): {
  chatTemplate: ChatTemplateSource | null;
  bosToken: string | null;
  eosToken: string | null;
} {
  const tc = config?.["tokenizer_config"];
  const tok = tc && typeof tc === "object" ? (tc as Record<string, unknown>) : {};
  const processor = config?.["processor_config"];
  const procTemplate =
    processor && typeof processor === "object" ? (processor as Record<string, unknown>)["chat_template"] : undefined;
  const jinja = config?.["chat_template_jinja"];
  return {
    chatTemplate: readChatTemplate(tok["chat_template"]) ?? readChatTemplate(jinja) ?? readChatTemplate(procTemplate),
    bosToken: tokenText(tok["bos_token"]),
    eosToken: tokenText(tok["eos_token"]),
  };
}

function normalizeProviders(m: ImportRecord["inferenceProviderMapping"]): ProviderMapping[] {
  if (!m) return [];
  const entries = Array.isArray(m) ? m.map((e) => [e.provider, e] as const) : Object.entries(m);
  const out: ProviderMapping[] = [];
  for (const [provider, e] of entries) {
    out.push({
      provider,
      providerId: e.providerId,
      task: e.task,
      status: e.status === "live" || e.status === "staging" ? e.status : null,
      adapter: e.adapter ?? null,
      adapterWeightsPath: e.adapterWeightsPath ?? null,
    });
  }
  return out.sort((a, b) => a.provider.localeCompare(b.provider));
}

function normalizeDate(s: string | null | undefined): string | null | undefined {
  if (s === undefined || s === null) return s;
  return new Date(Date.parse(s)).toISOString();
}

export function normalizeRecord(r: ImportRecord): NormalizedRecord {
  const id = (r.id ?? r.modelId)!;
  const out: NormalizedRecord = { id };
  if (r.author !== undefined && r.author !== null) out.author = r.author;
  if (r.pipeline_tag !== undefined) out.pipelineTag = r.pipeline_tag || null;
  if (r.library_name !== undefined) out.libraryName = r.library_name || null;
  if (r.tags !== undefined) out.tags = [...new Set(r.tags)];
  if (r.downloads !== undefined) out.downloads = r.downloads;
  if (r.likes !== undefined) out.likes = r.likes;
  if (r.createdAt !== undefined) out.createdAt = normalizeDate(r.createdAt);
  if (r.lastModified !== undefined) out.lastModified = normalizeDate(r.lastModified);
  if (r.gated !== undefined) out.gated = r.gated === true ? "auto" : r.gated === false ? "false" : r.gated;
  if (r.sha !== undefined) out.sha = r.sha;
  if (r.readme !== undefined) out.cardMarkdown = r.readme;
  if (r.cardData !== undefined) out.cardData = r.cardData;
  if (r.config !== undefined) {
    out.config = r.config;
    Object.assign(out, readTokenizerSettings(r.config));
  }
  if (r.siblings !== undefined) {
    out.siblings = r.siblings.map((s) => ({ rfilename: s.rfilename, size: s.size ?? s.lfs?.size ?? null }));
  }
  if (r.safetensors !== undefined) out.safetensors = r.safetensors;
  if (r.gguf !== undefined) {
    out.gguf = r.gguf;
    const t = r.gguf?.["chat_template"];
    if (typeof t === "string" && out.chatTemplate == null) out.chatTemplate = t;
  }
  if (r.widgetData !== undefined) out.widgetData = r.widgetData;
  if (r.transformersInfo !== undefined) out.transformersInfo = r.transformersInfo;
  const mi = r["model-index"];
  if (mi !== undefined) out.modelIndex = mi === null || Array.isArray(mi) ? mi : [mi];
  if (r.spaces !== undefined) out.spaces = [...new Set(r.spaces)];
  if (r.inferenceProviderMapping !== undefined) out.providers = normalizeProviders(r.inferenceProviderMapping);
  return out;
}

function asStringList(v: unknown): string[] {
  if (typeof v === "string") return v ? [v] : [];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string" && x.length > 0);
  return [];
}

/** Facts derived from tags and card data together; recomputed whenever either changes. */
export interface DerivedFacts {
  license: string | null;
  languages: string[];
  datasets: string[];
  baseModels: BaseModelLink[];
  /** Raw tags plus the facet tags the Hub would add (license:, dataset:, languages, base_model:). */
  filterTags: string[];
}

export function deriveFacts(tags: string[], cardData: Record<string, unknown> | null): DerivedFacts {
  const cardLicense = asStringList(cardData?.["license"])[0];
  const tagLicense = tags.find((t) => t.startsWith("license:"))?.slice("license:".length);
  const license = (cardLicense ?? tagLicense)?.toLowerCase() ?? null;

  const cardLangs = asStringList(cardData?.["language"]).map((l) => l.toLowerCase());
  const languages = [...new Set([...cardLangs.filter(isLanguageCode), ...tags.filter(isLanguageCode)])];

  const datasets = [
    ...new Set([
      ...tags.filter((t) => t.startsWith("dataset:")).map((t) => t.slice("dataset:".length)),
      ...asStringList(cardData?.["datasets"]),
    ]),
  ];

  const relations = baseModelsFromTags(tags);
  const cardRelation = cardData?.["base_model_relation"];
  for (const b of asStringList(cardData?.["base_model"])) {
    const rel =
      typeof cardRelation === "string" && (BASE_MODEL_RELATIONS as readonly string[]).includes(cardRelation)
        ? (cardRelation as BaseModelRelation)
        : "derived";
    const known = relations.get(b);
    if (!known || known === "derived") relations.set(b, rel === "derived" ? (known ?? rel) : rel);
  }
  const baseModels = [...relations].map(([id, relation]) => ({ id, relation })).filter((b) => b.id.length > 0);

  const filterTags = new Set(tags);
  if (license) filterTags.add(`license:${license}`);
  for (const l of languages) filterTags.add(l);
  for (const d of datasets) filterTags.add(`dataset:${d}`);
  for (const b of baseModels) filterTags.add(`base_model:${b.id}`);
  return { license, languages, datasets, baseModels, filterTags: [...filterTags] };
}

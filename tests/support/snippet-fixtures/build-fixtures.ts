/**
 * Rebuilds the small snippet fixtures from ../shared/data (see README.md next to this file).
 * Run from the project root: npx tsx tests/support/snippet-fixtures/build-fixtures.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { z } from "zod";
import type {
  BaseModelLink,
  CatalogModel,
  GatedMode,
  ModelSibling,
  ProviderMapping,
} from "#app/catalog/model-record.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = sharedDataDir();

/** Hub `GET /api/models/{id}` objects (model-details-2024-07.jsonl.gz), one per library case. */
const DETAIL_IDS = [
  "Qwen/Qwen2-0.5B-Instruct",
  "Qwen/Qwen2-72B-Instruct-AWQ",
  "Qwen/Qwen-VL-Chat",
  "Qwen/Qwen2-0.5B-Instruct-GGUF",
  "QuantFactory/TextBase-7B-v0.1-GGUF",
  "Qdrant/Splade_PP_en_v1",
  "qilowoq/AbLang_light",
  "6DammK9/AstolfoMix",
  "quanthome/paraphrase-multilingual-MiniLM-L12-v2",
  "1aurent/resnet18.tiatoolbox-kather100k",
  "000jd/phi-1_5-finetuned-bangla-bot",
  "3thn/dolphin-2.9-llama3-8b-4bit",
  "5aket/foodia",
  "4stack/Geom-ViT-L-14-CLIP",
  "qgallouedec/ppo-LiftCube-v0",
  "qanastek/pos-french",
  "QYHcrossover/poca-test2",
  "2Noise/ChatTTS",
  "1amkaizen/freelance_project_classification",
  "qnlbnsl/text_classifier_ai_voice_assistant",
  "01-ai/Yi-VL-6B",
];

/** Rows of the 2024-07-11 list API (no config): what the catalogue holds for most models. */
const LIST_IDS = ["timm/resnet50.a1_in1k", "google-bert/bert-base-uncased", "google/timesfm-1.0-200m"];

/** Models with real provider mappings (provider-mappings.jsonl). */
const INFERENCE_IDS = [
  "meta-llama/Meta-Llama-3-8B-Instruct",
  "meta-llama/Llama-3.3-70B-Instruct",
  "meta-llama/Llama-3.2-11B-Vision-Instruct",
  "CohereLabs/c4ai-command-r-plus",
  "black-forest-labs/FLUX.1-dev",
  "stabilityai/stable-diffusion-xl-base-1.0",
  "nerijs/pixel-art-xl",
  "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
  "BAAI/bge-small-en-v1.5",
  "openai/whisper-large-v3",
  "google-bert/bert-base-uncased",
];

const record = z.record(z.string(), z.unknown());

const hubDetailSchema = z.looseObject({
  id: z.string(),
  author: z.string().optional(),
  sha: z.string().nullish(),
  lastModified: z.string().nullish(),
  createdAt: z.string().nullish(),
  gated: z.union([z.literal(false), z.literal("auto"), z.literal("manual")]).optional(),
  pipeline_tag: z.string().nullish(),
  library_name: z.string().nullish(),
  tags: z.array(z.string()),
  downloads: z.number().optional(),
  likes: z.number().optional(),
  config: record.nullish(),
  cardData: record.nullish(),
  transformersInfo: record.nullish(),
  widgetData: z.array(z.unknown()).nullish(),
  safetensors: record.nullish(),
  gguf: record.nullish(),
  "model-index": z.array(z.unknown()).nullish(),
  siblings: z.array(z.looseObject({ rfilename: z.string(), size: z.number().optional() })).optional(),
  spaces: z.array(z.string()).optional(),
  mask_token: z.string().optional(),
});
type HubDetail = z.output<typeof hubDetailSchema>;

const mappingEntrySchema = z.looseObject({
  providerId: z.string(),
  task: z.string(),
  status: z.union([z.literal("live"), z.literal("staging"), z.null()]).optional(),
  adapter: z.string().optional(),
  adapterWeightsPath: z.string().optional(),
  source: z.string().optional(),
});
const mappingRowSchema = z.looseObject({
  id: z.string(),
  pipeline_tag: z.string().nullable(),
  inferenceProviderMapping: z.record(z.string(), mappingEntrySchema),
});
type MappingRow = z.output<typeof mappingRowSchema>;

/** Parses only the lines that mention one of `ids` (the list dump has 760k rows). */
function readJsonl(path: string, ids?: Set<string>): unknown[] {
  const raw = readFileSync(path);
  const text = path.endsWith(".gz") ? gunzipSync(raw).toString("utf8") : raw.toString("utf8");
  const needles = ids === undefined ? [] : [...ids].map((id) => JSON.stringify(id));
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && (needles.length === 0 || needles.some((n) => line.includes(n))))
    .map((line): unknown => JSON.parse(line));
}

function byId<T extends { id: string }>(rows: unknown[], schema: z.ZodType<T>, ids: Set<string>): Map<string, T> {
  const found = new Map<string, T>();
  for (const row of rows) {
    const id = z.object({ id: z.string() }).safeParse(row);
    if (!id.success || !ids.has(id.data.id)) continue;
    found.set(id.data.id, schema.parse(row));
  }
  return found;
}

function required<T>(map: Map<string, T>, id: string): T {
  const value = map.get(id);
  if (value === undefined) throw new Error(`${id} not found in the source data`);
  return value;
}

function tagValues(tags: string[], prefix: string): string[] {
  return tags.filter((tag) => tag.startsWith(prefix)).map((tag) => tag.slice(prefix.length));
}

const RELATIONS = new Set(["finetune", "quantized", "adapter", "merge"]);

function baseModels(tags: string[]): BaseModelLink[] {
  return tagValues(tags, "base_model:").map((value) => {
    const [first, ...rest] = value.split(":");
    if (first !== undefined && RELATIONS.has(first) && rest.length > 0) {
      const relation = first === "finetune" || first === "quantized" || first === "adapter" ? first : "merge";
      return { id: rest.join(":"), relation };
    }
    return { id: value, relation: "derived" };
  });
}

function stringList(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function tokenString(value: unknown): string | null {
  if (typeof value === "string") return value;
  const token = z.object({ content: z.string() }).safeParse(value);
  return token.success ? token.data.content : null;
}

const chatTemplateSource = z.union([z.string(), z.array(z.object({ name: z.string(), template: z.string() }))]);

/** The importer's mapping of a Hub model object onto the catalogue record. */
function hubToCatalog(hub: HubDetail, mappings: ProviderMapping[]): CatalogModel {
  const tokenizerConfig = record.safeParse(hub.config?.tokenizer_config);
  const tc = tokenizerConfig.success ? tokenizerConfig.data : {};
  const template = chatTemplateSource.safeParse(tc.chat_template);
  const siblings: ModelSibling[] = (hub.siblings ?? []).map((s) => ({ rfilename: s.rfilename, size: s.size ?? null }));
  const total = (value: Record<string, unknown> | null | undefined): number | null =>
    typeof value?.total === "number" ? value.total : null;
  const gated: GatedMode = hub.gated ?? false;
  return {
    id: hub.id,
    author: hub.author ?? hub.id.split("/")[0] ?? hub.id,
    pipelineTag: hub.pipeline_tag ?? null,
    libraryName: hub.library_name ?? null,
    license: tagValues(hub.tags, "license:")[0] ?? null,
    tags: hub.tags,
    downloads: hub.downloads ?? 0,
    likes: hub.likes ?? 0,
    trendingScore: 0,
    params: total(hub.safetensors) ?? total(hub.gguf),
    createdAt: hub.createdAt ?? null,
    lastModified: hub.lastModified ?? null,
    gated,
    statsAsOf: "2024-07-11",
    providers: [...new Set(mappings.map((m) => m.provider))],
    chatTemplateStatus: null,
    sha: hub.sha ?? null,
    languages: stringList(hub.cardData?.language),
    datasets: tagValues(hub.tags, "dataset:"),
    baseModels: baseModels(hub.tags),
    cardMarkdown: null,
    cardData: hub.cardData ?? null,
    config: hub.config ?? null,
    chatTemplate: template.success ? template.data : null,
    bosToken: tokenString(tc.bos_token),
    eosToken: tokenString(tc.eos_token),
    chatTemplateIssue: null,
    siblings,
    safetensors: hub.safetensors ?? null,
    gguf: hub.gguf ?? null,
    widgetData: hub.widgetData ?? null,
    transformersInfo: hub.transformersInfo ?? null,
    modelIndex: hub["model-index"] ?? null,
    inferenceProviderMapping: mappings,
    spaces: hub.spaces ?? [],
  };
}

function toMappings(row: MappingRow | undefined): ProviderMapping[] {
  if (row === undefined) return [];
  return Object.entries(row.inferenceProviderMapping).map(([provider, entry]) => ({
    provider,
    providerId: entry.providerId,
    task: entry.task,
    status: entry.status ?? null,
    adapter: entry.adapter ?? null,
    adapterWeightsPath: entry.adapterWeightsPath ?? null,
  }));
}

/**
 * The 2024 dump predates the Hub's `gguf` field. Qwen2-0.5B and Qwen2.5-0.5B share the qwen2
 * architecture and every dimension (494,032,768 parameters, 32,768 context), so the block is
 * taken from the Qwen2.5-0.5B-Instruct GGUF header in ollama's converter testdata, with the chat
 * template of Qwen/Qwen2-0.5B-Instruct (what llama.cpp's converter copies into the GGUF).
 */
function qwen2GgufBlock(instruct: HubDetail): Record<string, unknown> {
  const header = z
    .record(z.string(), z.string())
    .parse(JSON.parse(readFileSync(join(dataDir, "gguf-metadata/ollama-convert-testdata/Qwen2.5-0.5B-Instruct.json"), "utf8")));
  const architecture = header["general.architecture"];
  if (architecture === undefined) throw new Error("GGUF header without general.architecture");
  const tc = record.parse(instruct.config?.tokenizer_config);
  return {
    total: Number(header["general.parameter_count"]),
    architecture,
    context_length: Number(header[`${architecture}.context_length`]),
    chat_template: z.string().parse(tc.chat_template),
    bos_token: tokenString(tc.bos_token),
    eos_token: tokenString(tc.eos_token),
  };
}

const DROP_KEYS = new Set(["_id", "modelId", "disabled", "inferenceStatus"]);

function trimHub(raw: unknown): Record<string, unknown> {
  const object = record.parse(raw);
  return Object.fromEntries(Object.entries(object).filter(([key]) => !DROP_KEYS.has(key)));
}

function main(): void {
  const mappingRows = byId(
    readJsonl(join(dataDir, "provider-mappings.jsonl")),
    mappingRowSchema,
    new Set([...INFERENCE_IDS, ...DETAIL_IDS, ...LIST_IDS]),
  );

  const detailIds = new Set([...DETAIL_IDS]);
  const detailRows = readJsonl(join(dataDir, "model-details-2024-07.jsonl.gz"), detailIds);
  const rawDetails = new Map<string, unknown>();
  for (const row of detailRows) {
    const id = z.object({ id: z.string() }).safeParse(row);
    if (id.success && detailIds.has(id.data.id)) rawDetails.set(id.data.id, row);
  }
  const listIds = new Set([...LIST_IDS, ...INFERENCE_IDS]);
  const listRows = new Map<string, unknown>();
  for (const file of ["catalog-top5000-2024-07-11.jsonl", "hub-models-2024-07-11.jsonl.gz"]) {
    for (const row of readJsonl(join(dataDir, file), listIds)) {
      const id = z.object({ id: z.string() }).safeParse(row);
      if (id.success && listIds.has(id.data.id) && !listRows.has(id.data.id)) listRows.set(id.data.id, row);
    }
  }

  const instruct = hubDetailSchema.parse(required(rawDetails, "Qwen/Qwen2-0.5B-Instruct"));
  const libraryFixtures: Array<{ source: string; hub: Record<string, unknown>; catalog: CatalogModel }> = [];
  for (const id of DETAIL_IDS) {
    const hub = trimHub(required(rawDetails, id));
    let source = "model-details-2024-07.jsonl.gz";
    if (id === "Qwen/Qwen2-0.5B-Instruct-GGUF") {
      hub.gguf = qwen2GgufBlock(instruct);
      source += " + gguf block from gguf-metadata/ollama-convert-testdata/Qwen2.5-0.5B-Instruct.json";
    }
    libraryFixtures.push({ source, hub, catalog: hubToCatalog(hubDetailSchema.parse(hub), toMappings(mappingRows.get(id))) });
  }
  for (const id of LIST_IDS) {
    const hub = trimHub(required(listRows, id));
    libraryFixtures.push({
      source: "catalog-top5000-2024-07-11.jsonl / hub-models-2024-07-11.jsonl.gz (list API row, no config)",
      hub,
      catalog: hubToCatalog(hubDetailSchema.parse(hub), toMappings(mappingRows.get(id))),
    });
  }

  const inferenceFixtures: Array<{ source: string; catalog: CatalogModel }> = [];
  for (const id of INFERENCE_IDS) {
    const mappingRow = required(mappingRows, id);
    const mappings = toMappings(mappingRow);
    const listed = listRows.get(id);
    if (listed !== undefined) {
      inferenceFixtures.push({
        source: "catalog-top5000-2024-07-11.jsonl + provider-mappings.jsonl",
        catalog: hubToCatalog(hubDetailSchema.parse(trimHub(listed)), mappings),
      });
      continue;
    }
    // Newer than the 2024 list: only the mapping row exists. A "conversational" mapping task exists
    // only for models the Hub tags "conversational", which is the one tag the snippets read.
    const conversational = mappings.some((m) => m.task === "conversational");
    const tags = [mappingRow.pipeline_tag, conversational ? "conversational" : null].filter(
      (tag): tag is string => tag !== null,
    );
    inferenceFixtures.push({
      source: "provider-mappings.jsonl (tags reconstructed from pipeline_tag and the mapping task)",
      catalog: hubToCatalog({ id, pipeline_tag: mappingRow.pipeline_tag, tags }, mappings),
    });
  }

  writeFileSync(join(here, "library-models.json"), `${JSON.stringify(libraryFixtures, null, 2)}\n`);
  writeFileSync(join(here, "inference-models.json"), `${JSON.stringify(inferenceFixtures, null, 2)}\n`);
  console.log(`library fixtures: ${libraryFixtures.length}, inference fixtures: ${inferenceFixtures.length}`);
}

main();

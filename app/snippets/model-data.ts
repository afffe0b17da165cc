/**
 * Maps a catalogue record back to the `ModelData` shape that @huggingface/tasks (library snippets,
 * LOCAL_APPS) and @huggingface/inference (inference snippets) read, so those libraries see the same
 * object the Hub hands them on a model page.
 *
 * Values are passed through untouched where their type matches what the libraries declare. A value
 * of the wrong type is dropped (set to undefined) rather than coerced, so a malformed catalogue row
 * can never make a snippet function throw on a property access it was typed to trust.
 */
import type { ModelData, PipelineType, WidgetExample } from "@huggingface/tasks";
import { PIPELINE_TYPES_SET } from "@huggingface/tasks";
import { z } from "zod";
import { isChatModel, taskOf } from "#app/catalog/chat-model.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";

const PIPELINE_TYPE_NAMES: ReadonlySet<string> = PIPELINE_TYPES_SET;

export function isPipelineType(value: unknown): value is PipelineType {
  return typeof value === "string" && PIPELINE_TYPE_NAMES.has(value);
}

const pipelineTypeSchema = z.custom<PipelineType>(isPipelineType);

/** A field that keeps its value when it has the declared type and becomes undefined otherwise. */
function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

const addedTokenSchema = z.looseObject({
  __type: z.literal("AddedToken"),
  content: lenient(z.string()),
  lstrip: lenient(z.boolean()),
  normalized: lenient(z.boolean()),
  rstrip: lenient(z.boolean()),
  single_word: lenient(z.boolean()),
});

const specialTokenSchema = lenient(z.union([z.string(), addedTokenSchema, z.null()]));

const chatTemplateSchema = z.union([
  z.string(),
  z.array(z.object({ name: z.string(), template: z.string() })),
]);

const tokenizerConfigSchema = z.looseObject({
  bos_token: specialTokenSchema,
  eos_token: specialTokenSchema,
  unk_token: specialTokenSchema,
  sep_token: specialTokenSchema,
  pad_token: specialTokenSchema,
  cls_token: specialTokenSchema,
  mask_token: specialTokenSchema,
  use_default_system_prompt: lenient(z.boolean()),
  chat_template: lenient(chatTemplateSchema),
});

const configSchema = z.looseObject({
  architectures: lenient(z.array(z.string())),
  auto_map: lenient(z.record(z.string(), z.string())),
  model_type: lenient(z.string()),
  quantization_config: lenient(
    z.looseObject({
      bits: lenient(z.number()),
      load_in_4bit: lenient(z.boolean()),
      load_in_8bit: lenient(z.boolean()),
      quant_method: lenient(z.string()),
    }),
  ),
  tokenizer_config: lenient(tokenizerConfigSchema),
  processor_config: lenient(z.looseObject({ chat_template: lenient(z.string()) })),
  chat_template_jinja: lenient(z.string()),
  adapter_transformers: lenient(
    z.looseObject({ model_name: lenient(z.string()), model_class: lenient(z.string()) }),
  ),
  diffusers: lenient(z.looseObject({ _class_name: lenient(z.string()) })),
  sklearn: lenient(
    z.looseObject({
      model: lenient(z.looseObject({ file: lenient(z.string()) })),
      model_format: lenient(z.string()),
    }),
  ),
  speechbrain: lenient(
    z.looseObject({
      speechbrain_interface: lenient(z.string()),
      vocoder_interface: lenient(z.string()),
      vocoder_model_id: lenient(z.string()),
    }),
  ),
  peft: lenient(
    z.looseObject({ base_model_name_or_path: lenient(z.string()), task_type: lenient(z.string()) }),
  ),
  keras_hub: lenient(z.looseObject({ tasks: lenient(z.array(z.string())) })),
});

const cardDataSchema = z.looseObject({
  inference: lenient(
    z.union([z.boolean(), z.looseObject({ parameters: lenient(z.record(z.string(), z.unknown())) })]),
  ),
  base_model: lenient(z.union([z.string(), z.array(z.string())])),
  instance_prompt: lenient(z.string().nullable()),
});

const transformersInfoSchema = z.looseObject({
  auto_model: z.string(),
  custom_class: lenient(z.string()),
  pipeline_tag: lenient(pipelineTypeSchema),
  processor: lenient(z.string()),
});

const safetensorsSchema = z.looseObject({
  parameters: z.record(z.string(), z.number()),
  total: z.number(),
  sharded: z.boolean().optional(),
});

const ggufSchema = z.looseObject({
  total: lenient(z.number()),
  architecture: lenient(z.string()),
  context_length: lenient(z.number()),
  chat_template: lenient(z.string()),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Widget examples are a union of shapes told apart by which input key they carry; an entry with
 * none of them would only make `getModelInputSnippet`-style readers produce "undefined".
 */
export function isWidgetExample(value: unknown): value is WidgetExample {
  if (!isRecord(value)) return false;
  return (
    typeof value.text === "string" ||
    Array.isArray(value.messages) ||
    typeof value.src === "string" ||
    isRecord(value.structured_data) ||
    isRecord(value.table) ||
    (typeof value.source_sentence === "string" && Array.isArray(value.sentences))
  );
}

/**
 * The Hub reports `mask_token` from the model type, not from tokenizer_config: in the 844
 * `model-details-2024-07` rows that carry one, every row of these types has exactly this token,
 * including rows whose tokenizer_config says otherwise (8 bert rows list "<mask>", the Hub says
 * "[MASK]"). Other model types fall back to tokenizer_config.mask_token.
 */
const MASK_TOKEN_BY_MODEL_TYPE: ReadonlyMap<string, string> = new Map([
  ["albert", "[MASK]"],
  ["bert", "[MASK]"],
  ["deberta-v2", "[MASK]"],
  ["distilbert", "[MASK]"],
  ["electra", "[MASK]"],
  ["bart", "<mask>"],
  ["camembert", "<mask>"],
  ["roberta", "<mask>"],
  ["xlm-roberta", "<mask>"],
  ["xlnet", "<mask>"],
]);

type ParsedConfig = z.output<typeof configSchema>;

function tokenText(token: z.output<typeof specialTokenSchema>): string | undefined {
  if (typeof token === "string") return token;
  if (token && typeof token.content === "string") return token.content;
  return undefined;
}


/** The model's mask token, or undefined when neither its config nor a model-type tag says. */
export function maskTokenFor(config: ParsedConfig | undefined, tags: readonly string[]): string | undefined {
  // Rows imported from the list API have no config; the Hub puts the model type among the tags.
  const modelType = config?.model_type ?? tags.find((tag) => MASK_TOKEN_BY_MODEL_TYPE.has(tag));
  const byType = modelType === undefined ? undefined : MASK_TOKEN_BY_MODEL_TYPE.get(modelType);
  return byType ?? tokenText(config?.tokenizer_config?.mask_token);
}

function hasChatTemplate(config: ParsedConfig): boolean {
  return (
    config.tokenizer_config?.chat_template !== undefined ||
    config.processor_config?.chat_template !== undefined ||
    config.chat_template_jinja !== undefined
  );
}

function buildConfig(model: CatalogModel): ParsedConfig | undefined {
  const parsed = model.config === null ? undefined : configSchema.safeParse(model.config);
  let config = parsed?.success ? parsed.data : undefined;
  // The importer may keep the chat template only in its own column; the transformers snippet
  // checks config for it to decide whether to print the chat example.
  if (model.chatTemplate !== null && (config === undefined || !hasChatTemplate(config))) {
    config = {
      ...config,
      tokenizer_config: { ...config?.tokenizer_config, chat_template: model.chatTemplate },
    };
  }
  return config;
}

function isShardedFromSiblings(model: CatalogModel): boolean {
  return model.siblings.some((sibling) => sibling.rfilename.endsWith(".safetensors.index.json"));
}

function buildSafetensors(model: CatalogModel): ModelData["safetensors"] {
  if (model.safetensors === null) return undefined;
  const parsed = safetensorsSchema.safeParse(model.safetensors);
  if (!parsed.success) return undefined;
  // Older Hub responses (2024) carry no `sharded`; the Hub derives it from the index file.
  return { ...parsed.data, sharded: parsed.data.sharded ?? isShardedFromSiblings(model) };
}

function buildGguf(model: CatalogModel): ModelData["gguf"] {
  if (model.gguf === null) return undefined;
  const parsed = ggufSchema.safeParse(model.gguf);
  if (!parsed.success) return undefined;
  // `total` is the GGUF parameter count; CatalogModel.params holds the same figure when the
  // importer computed it. Neither library reads it, but the type requires a number.
  return { ...parsed.data, total: parsed.data.total ?? model.params ?? 0 };
}

function buildWidgetData(model: CatalogModel): WidgetExample[] | undefined {
  if (model.widgetData === null) return undefined;
  return model.widgetData.filter(isWidgetExample);
}

function parseOrUndefined<T extends z.ZodType>(schema: T, value: unknown): z.output<T> | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * @huggingface/tasks 0.19.90 no longer has "text2text-generation" as a pipeline (it is a subtask
 * of text-generation, as the Hub now files those models); 2024 rows still carry it.
 */
const LEGACY_PIPELINE_TAGS: ReadonlyMap<string, PipelineType> = new Map([["text2text-generation", "text-generation"]]);

export function pipelineTagFor(tag: string | null): PipelineType | undefined {
  if (tag === null) return undefined;
  if (isPipelineType(tag)) return tag;
  return LEGACY_PIPELINE_TAGS.get(tag);
}

export function toModelData(model: CatalogModel): ModelData {
  const config = buildConfig(model);
  return {
    id: model.id,
    // The Hub's `inference` status is not in the catalogue; no code in @huggingface/tasks 0.19.90
    // or @huggingface/inference 3.13.1 reads it (their own tests pass "").
    inference: "",
    private: false,
    // The library writes chat code only for a "conversational" tag; a chat model whose record
    // lacks it (a list row known only by its provider mapping) gets it here (isChatModel).
    tags: isChatModel(model) && !model.tags.includes("conversational") ? [...model.tags, "conversational"] : [...model.tags],
    pipeline_tag: pipelineTagFor(taskOf(model)),
    library_name: model.libraryName ?? undefined,
    mask_token: maskTokenFor(config, model.tags),
    config,
    cardData: parseOrUndefined(cardDataSchema, model.cardData),
    transformersInfo: parseOrUndefined(transformersInfoSchema, model.transformersInfo),
    widgetData: buildWidgetData(model),
    safetensors: buildSafetensors(model),
    gguf: buildGguf(model),
  };
}

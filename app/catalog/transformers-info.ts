/**
 * Derives a model's `transformersInfo` (auto_model, custom_class, pipeline_tag, processor) the way
 * the Hub computes it, for records that do not carry it: list-API rows, local folders, older dumps.
 * @huggingface/tasks builds the Transformers "Use this model" snippet from this field alone, so
 * without it a model page shows "# ⚠️ Type of model unknown". See docs/decisions/0014.
 *
 * With a config, the architecture in `config.architectures[0]` picks the Auto class through
 * transformers' own tables (custom code through `auto_map`), and the model type picks the processor.
 * Without one (list-API rows), the model-type tag the Hub adds to every transformers repo stands in
 * for the config, and `pipeline_tag` chooses among that type's Auto classes; failing that, the task's
 * usual Auto class and processor; failing that, a bare AutoModel. Nothing here is keyed by model id.
 */
import type { TransformersInfoSource } from "#app/catalog/model-record.ts";
import {
  type AutoClassName,
  MODEL_TYPE_AUTO_CLASSES,
  PROCESSOR_MODEL_TYPES,
} from "#app/catalog/transformers-auto-classes.generated.ts";

export interface TransformersInfo {
  auto_model: string;
  custom_class?: string;
  pipeline_tag?: string;
  processor?: string;
}

export type DerivedSource = Exclude<TransformersInfoSource, "hub">;

export interface DerivationInput {
  config: Record<string, unknown> | null;
  tags: readonly string[];
  pipelineTag: string | null;
  libraryName: string | null;
}

type ModelTypeTable = Partial<Record<AutoClassName, readonly string[]>>;
const TYPE_TABLES: Readonly<Record<string, ModelTypeTable>> = MODEL_TYPE_AUTO_CLASSES;

/**
 * The Auto classes the Hub resolves an architecture through, most specific first: an architecture
 * listed under several (GPT2LMHeadModel is a causal LM and a pre-training model; BartForConditional-
 * Generation is seq2seq and masked LM) takes the first. Classes the Hub does not name are left out;
 * an architecture found only there is named as itself (SegformerForSemanticSegmentation) or falls
 * to the suffix rules (VisionEncoderDecoderModel -> AutoModel), as the Hub's records show.
 */
const HUB_AUTO_CLASS_ORDER = [
  "AutoModelForCausalLM",
  "AutoModelForSeq2SeqLM",
  "AutoModelForSpeechSeq2Seq",
  "AutoModelForMaskedLM",
  "AutoModelForSequenceClassification",
  "AutoModelForTokenClassification",
  "AutoModelForQuestionAnswering",
  "AutoModelForTableQuestionAnswering",
  "AutoModelForVisualQuestionAnswering",
  "AutoModelForDocumentQuestionAnswering",
  "AutoModelForMultipleChoice",
  "AutoModelForNextSentencePrediction",
  "AutoModelForImageClassification",
  "AutoModelForZeroShotImageClassification",
  "AutoModelForObjectDetection",
  "AutoModelForZeroShotObjectDetection",
  "AutoModelForDepthEstimation",
  "AutoModelForVideoClassification",
  "AutoModelForAudioClassification",
  "AutoModelForAudioFrameClassification",
  "AutoModelForAudioXVector",
  "AutoModelForCTC",
  "AutoModelForTextToSpectrogram",
  "AutoModelForTextToWaveform",
  "AutoModelForMaskGeneration",
  "AutoModelForImageToImage",
  "AutoModelForMaskedImageModeling",
  "AutoModelForPreTraining",
  "AutoModel",
] as const satisfies readonly AutoClassName[];
type HubAutoClass = (typeof HUB_AUTO_CLASS_ORDER)[number];

/** The pipeline the Hub files each Auto class under (text2text-generation as in its 2024 records). */
const AUTO_CLASS_PIPELINE: Readonly<Record<string, string>> = {
  AutoModelForCausalLM: "text-generation",
  AutoModelForSeq2SeqLM: "text2text-generation",
  AutoModelForSpeechSeq2Seq: "automatic-speech-recognition",
  AutoModelForCTC: "automatic-speech-recognition",
  AutoModelForMaskedLM: "fill-mask",
  AutoModelForSequenceClassification: "text-classification",
  AutoModelForTokenClassification: "token-classification",
  AutoModelForQuestionAnswering: "question-answering",
  AutoModelForTableQuestionAnswering: "table-question-answering",
  AutoModelForVisualQuestionAnswering: "visual-question-answering",
  AutoModelForDocumentQuestionAnswering: "document-question-answering",
  AutoModelForMultipleChoice: "multiple-choice",
  AutoModelForImageClassification: "image-classification",
  AutoModelForZeroShotImageClassification: "zero-shot-image-classification",
  AutoModelForObjectDetection: "object-detection",
  AutoModelForZeroShotObjectDetection: "zero-shot-object-detection",
  AutoModelForDepthEstimation: "depth-estimation",
  AutoModelForVideoClassification: "video-classification",
  AutoModelForAudioClassification: "audio-classification",
  AutoModelForTextToSpectrogram: "text-to-audio",
  AutoModelForTextToWaveform: "text-to-audio",
  AutoModelForMaskGeneration: "mask-generation",
  AutoModelForImageToImage: "image-to-image",
  AutoModelForPreTraining: "pretraining",
  AutoModel: "feature-extraction",
};

/**
 * Architectures outside the tables (custom code without auto_map, renamed or removed classes) are
 * read by their suffix, longest first so "ForCausalLM" wins over "Model".
 */
const SUFFIX_AUTO_CLASS: ReadonlyArray<readonly [string, HubAutoClass]> = [
  ["ForCausalLM", "AutoModelForCausalLM"],
  ["LMHeadModel", "AutoModelForCausalLM"],
  ["ForConditionalGeneration", "AutoModelForSeq2SeqLM"],
  ["ForMaskedLM", "AutoModelForMaskedLM"],
  ["ForSequenceClassification", "AutoModelForSequenceClassification"],
  ["ForTokenClassification", "AutoModelForTokenClassification"],
  ["ForQuestionAnswering", "AutoModelForQuestionAnswering"],
  ["ForMultipleChoice", "AutoModelForMultipleChoice"],
  ["ForImageClassification", "AutoModelForImageClassification"],
  ["ForObjectDetection", "AutoModelForObjectDetection"],
  ["ForAudioClassification", "AutoModelForAudioClassification"],
  ["ForCTC", "AutoModelForCTC"],
  ["Model", "AutoModel"],
];

/** Which Auto classes a pipeline tag is served by, best first; the tags path picks among these. */
const PIPELINE_AUTO_CLASSES: Readonly<Record<string, readonly AutoClassName[]>> = {
  "text-generation": ["AutoModelForCausalLM", "AutoModelForSeq2SeqLM"],
  "text2text-generation": ["AutoModelForSeq2SeqLM", "AutoModelForCausalLM"],
  summarization: ["AutoModelForSeq2SeqLM", "AutoModelForCausalLM"],
  translation: ["AutoModelForSeq2SeqLM", "AutoModelForCausalLM"],
  "fill-mask": ["AutoModelForMaskedLM"],
  "text-classification": ["AutoModelForSequenceClassification"],
  "zero-shot-classification": ["AutoModelForSequenceClassification"],
  "token-classification": ["AutoModelForTokenClassification"],
  "question-answering": ["AutoModelForQuestionAnswering"],
  "table-question-answering": ["AutoModelForTableQuestionAnswering", "AutoModelForSeq2SeqLM"],
  "visual-question-answering": ["AutoModelForVisualQuestionAnswering"],
  "document-question-answering": ["AutoModelForDocumentQuestionAnswering"],
  "multiple-choice": ["AutoModelForMultipleChoice"],
  "feature-extraction": ["AutoModel"],
  "sentence-similarity": ["AutoModel"],
  "image-classification": ["AutoModelForImageClassification"],
  "zero-shot-image-classification": ["AutoModelForZeroShotImageClassification"],
  "object-detection": ["AutoModelForObjectDetection"],
  "zero-shot-object-detection": ["AutoModelForZeroShotObjectDetection"],
  "image-segmentation": [
    "AutoModelForImageSegmentation",
    "AutoModelForSemanticSegmentation",
    "AutoModelForUniversalSegmentation",
    "AutoModelForInstanceSegmentation",
  ],
  "depth-estimation": ["AutoModelForDepthEstimation"],
  "video-classification": ["AutoModelForVideoClassification"],
  "audio-classification": ["AutoModelForAudioClassification"],
  "automatic-speech-recognition": ["AutoModelForSpeechSeq2Seq", "AutoModelForCTC"],
  "text-to-audio": ["AutoModelForTextToWaveform", "AutoModelForTextToSpectrogram"],
  "text-to-speech": ["AutoModelForTextToWaveform", "AutoModelForTextToSpectrogram"],
  "image-to-text": ["AutoModelForImageTextToText", "AutoModelForCausalLM", "AutoModel"],
  "image-text-to-text": ["AutoModelForImageTextToText", "AutoModelForCausalLM"],
  "mask-generation": ["AutoModelForMaskGeneration"],
  "image-to-image": ["AutoModelForImageToImage"],
  "time-series-forecasting": ["AutoModelForTimeSeriesPrediction"],
};

/** When no model-type tag is there: the task's usual Auto class and processor. */
const TASK_DEFAULTS: Readonly<Record<string, { autoModel: string; processor: string | null }>> = {
  "text-generation": { autoModel: "AutoModelForCausalLM", processor: "AutoTokenizer" },
  "text2text-generation": { autoModel: "AutoModelForSeq2SeqLM", processor: "AutoTokenizer" },
  summarization: { autoModel: "AutoModelForSeq2SeqLM", processor: "AutoTokenizer" },
  translation: { autoModel: "AutoModelForSeq2SeqLM", processor: "AutoTokenizer" },
  "fill-mask": { autoModel: "AutoModelForMaskedLM", processor: "AutoTokenizer" },
  "text-classification": { autoModel: "AutoModelForSequenceClassification", processor: "AutoTokenizer" },
  "zero-shot-classification": { autoModel: "AutoModelForSequenceClassification", processor: "AutoTokenizer" },
  "token-classification": { autoModel: "AutoModelForTokenClassification", processor: "AutoTokenizer" },
  "question-answering": { autoModel: "AutoModelForQuestionAnswering", processor: "AutoTokenizer" },
  "multiple-choice": { autoModel: "AutoModelForMultipleChoice", processor: "AutoTokenizer" },
  "feature-extraction": { autoModel: "AutoModel", processor: "AutoTokenizer" },
  "sentence-similarity": { autoModel: "AutoModel", processor: "AutoTokenizer" },
  "image-classification": { autoModel: "AutoModelForImageClassification", processor: "AutoImageProcessor" },
  "object-detection": { autoModel: "AutoModelForObjectDetection", processor: "AutoImageProcessor" },
  "depth-estimation": { autoModel: "AutoModelForDepthEstimation", processor: "AutoImageProcessor" },
  "video-classification": { autoModel: "AutoModelForVideoClassification", processor: "AutoImageProcessor" },
  "zero-shot-image-classification": { autoModel: "AutoModelForZeroShotImageClassification", processor: "AutoProcessor" },
  "zero-shot-object-detection": { autoModel: "AutoModelForZeroShotObjectDetection", processor: "AutoProcessor" },
  "image-text-to-text": { autoModel: "AutoModelForImageTextToText", processor: "AutoProcessor" },
  "image-to-text": { autoModel: "AutoModelForImageTextToText", processor: "AutoProcessor" },
  "visual-question-answering": { autoModel: "AutoModelForVisualQuestionAnswering", processor: "AutoProcessor" },
  "document-question-answering": { autoModel: "AutoModelForDocumentQuestionAnswering", processor: "AutoProcessor" },
  "automatic-speech-recognition": { autoModel: "AutoModelForSpeechSeq2Seq", processor: "AutoProcessor" },
  "audio-classification": { autoModel: "AutoModelForAudioClassification", processor: "AutoFeatureExtractor" },
  "text-to-audio": { autoModel: "AutoModelForTextToWaveform", processor: "AutoProcessor" },
  "text-to-speech": { autoModel: "AutoModelForTextToWaveform", processor: "AutoProcessor" },
  "mask-generation": { autoModel: "AutoModelForMaskGeneration", processor: "AutoProcessor" },
};

/** auto_map keys that name a model class (the rest are config, tokenizer and processor classes). */
function isModelAutoKey(key: string): boolean {
  return key === "AutoModel" || key.startsWith("AutoModelFor");
}

const PROCESSOR_SETS = {
  AutoProcessor: new Set<string>(PROCESSOR_MODEL_TYPES.AutoProcessor),
  AutoTokenizer: new Set<string>(PROCESSOR_MODEL_TYPES.AutoTokenizer),
  AutoImageProcessor: new Set<string>(PROCESSOR_MODEL_TYPES.AutoImageProcessor),
  AutoFeatureExtractor: new Set<string>(PROCESSOR_MODEL_TYPES.AutoFeatureExtractor),
};

/** Architecture class -> the Hub-ordered Auto classes that load it, built once from the tables. */
const ARCH_AUTO_CLASSES: ReadonlyMap<string, readonly HubAutoClass[]> = (() => {
  const out = new Map<string, HubAutoClass[]>();
  for (const cls of HUB_AUTO_CLASS_ORDER) {
    for (const table of Object.values(TYPE_TABLES)) {
      for (const arch of table[cls] ?? []) {
        const list = out.get(arch) ?? [];
        if (!list.includes(cls)) list.push(cls);
        out.set(arch, list);
      }
    }
  }
  return out;
})();

function stringAt(o: Record<string, unknown> | null, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

function firstArchitecture(config: Record<string, unknown>): string | undefined {
  const archs = config["architectures"];
  if (!Array.isArray(archs)) return undefined;
  const first: unknown = archs[0];
  return typeof first === "string" && first.length > 0 ? first : undefined;
}

function autoMapOf(config: Record<string, unknown>): Array<[string, string]> {
  const m = config["auto_map"];
  if (!m || typeof m !== "object" || Array.isArray(m)) return [];
  return Object.entries(m).filter((e): e is [string, string] => typeof e[1] === "string");
}

/** The class name at the end of an auto_map reference ("org/repo--modeling_x.XForCausalLM"). */
function className(ref: string): string {
  return ref.slice(ref.lastIndexOf(".") + 1);
}

/**
 * Composite types with no tokenizer entry of their own: AutoTokenizer reads the decoder's tokenizer
 * class from tokenizer_config.json, and the Hub names AutoTokenizer for them.
 */
const COMPOSITE_TOKENIZER_TYPES: ReadonlySet<string> = new Set(["encoder-decoder", "vision-encoder-decoder"]);

/**
 * The processor a model type loads with: a multimodal processor when transformers has one, else its
 * tokenizer, image processor or feature extractor, in the order the Hub prefers them.
 */
export function processorForModelType(modelType: string | undefined): string | undefined {
  if (modelType === undefined) return undefined;
  if (COMPOSITE_TOKENIZER_TYPES.has(modelType)) return "AutoTokenizer";
  if (PROCESSOR_SETS.AutoProcessor.has(modelType)) return "AutoProcessor";
  if (PROCESSOR_SETS.AutoTokenizer.has(modelType)) return "AutoTokenizer";
  if (PROCESSOR_SETS.AutoImageProcessor.has(modelType)) return "AutoImageProcessor";
  if (PROCESSOR_SETS.AutoFeatureExtractor.has(modelType)) return "AutoFeatureExtractor";
  return undefined;
}

function withOptional(info: TransformersInfo, pipelineTag: string | undefined, processor: string | undefined): TransformersInfo {
  if (pipelineTag !== undefined) info.pipeline_tag = pipelineTag;
  if (processor !== undefined) info.processor = processor;
  return info;
}

/**
 * An architecture class as the Hub resolves it without custom code: through the tables, else by its
 * suffix; a class neither knows (BertForCL, SegformerForSemanticSegmentation) is named as itself.
 */
function resolveArchitecture(arch: string): { autoModel: string; pipelineTag: string | undefined } {
  const listed = ARCH_AUTO_CLASSES.get(arch)?.[0];
  if (listed !== undefined) return { autoModel: listed, pipelineTag: AUTO_CLASS_PIPELINE[listed] };
  const bySuffix = SUFFIX_AUTO_CLASS.find(([suffix]) => arch.endsWith(suffix))?.[1];
  // A bare "…Model" is only known to be a base model, so the Hub names no pipeline for it.
  if (bySuffix !== undefined) return { autoModel: bySuffix, pipelineTag: bySuffix === "AutoModel" ? undefined : AUTO_CLASS_PIPELINE[bySuffix] };
  return { autoModel: arch, pipelineTag: undefined };
}

/** From config.json: the Hub's own route, from the architecture. */
function fromConfig(config: Record<string, unknown>, arch: string): TransformersInfo {
  const processor = processorForModelType(stringAt(config, "model_type"));
  // Custom code: the first auto_map entry that loads this very architecture.
  const custom = autoMapOf(config).find(([key, ref]) => isModelAutoKey(key) && className(ref) === arch);
  if (custom) {
    const [autoModel, ref] = custom;
    return withOptional({ auto_model: autoModel, custom_class: ref }, AUTO_CLASS_PIPELINE[autoModel] ?? "feature-extraction", processor);
  }
  const resolved = resolveArchitecture(arch);
  return withOptional({ auto_model: resolved.autoModel }, resolved.pipelineTag, processor);
}

/** The model type the Hub tags a transformers repo with, if one of its tags is a known type. */
export function modelTypeFromTags(tags: readonly string[]): string | undefined {
  return tags.find((t) => Object.hasOwn(TYPE_TABLES, t));
}

/**
 * The tasks to try, best first. The Hub tags a repo with the pipeline of its derived
 * transformersInfo, which can differ from the card's pipeline_tag (a question-answering model
 * filed under translation), so task tags other than pipeline_tag come first.
 */
function candidatePipelines(tags: readonly string[], pipelineTag: string | null): string[] {
  const fromTags = tags.filter((t) => t !== pipelineTag && Object.hasOwn(PIPELINE_AUTO_CLASSES, t));
  return pipelineTag === null ? fromTags : [...fromTags, pipelineTag];
}

/** Without a config: the model-type tag and the task stand in for the architecture. */
function fromTags(modelType: string, tags: readonly string[], pipelineTag: string | null): TransformersInfo | null {
  const table = TYPE_TABLES[modelType];
  if (!table) return null;
  const processor = processorForModelType(modelType);
  const tasks = candidatePipelines(tags, pipelineTag);
  for (const task of tasks) {
    for (const cls of PIPELINE_AUTO_CLASSES[task] ?? []) {
      const arch = table[cls]?.[0];
      if (arch === undefined) continue;
      // The architecture this type would carry for that task, resolved as a config naming it would be.
      const resolved = resolveArchitecture(arch);
      return withOptional({ auto_model: resolved.autoModel }, resolved.pipelineTag, processor);
    }
  }
  // The type has no class for the task (custom code on a known type, e.g. LLaVA variants filed
  // under text-generation): the task's usual class, with the type's processor.
  const byTask = tasks.map((t) => TASK_DEFAULTS[t]).find((d) => d !== undefined);
  if (byTask) return withOptional({ auto_model: byTask.autoModel }, AUTO_CLASS_PIPELINE[byTask.autoModel], processor);
  // A task no Auto class serves for this type (CLIPSeg filed under image-segmentation): its base model.
  if (tasks.length > 0 && table.AutoModel !== undefined) return withOptional({ auto_model: "AutoModel" }, "feature-extraction", processor);
  // No task: the type's base model, else its first class the Hub names.
  const base = table.AutoModel?.[0] ?? HUB_AUTO_CLASS_ORDER.map((c) => table[c]?.[0]).find((a) => a !== undefined) ?? Object.values(table)[0]?.[0];
  if (base === undefined) return null;
  const resolved = resolveArchitecture(base);
  return withOptional({ auto_model: resolved.autoModel }, resolved.pipelineTag, processor);
}

function fromTask(tags: readonly string[], pipelineTag: string | null): TransformersInfo | null {
  const d = candidatePipelines(tags, pipelineTag).map((t) => TASK_DEFAULTS[t]).find((x) => x !== undefined);
  if (!d) return null;
  // No known model-type tag means a type the tables do not know (custom code: RefinedWebModel, vlm),
  // and the Hub names a processor only for known types.
  return withOptional({ auto_model: d.autoModel }, AUTO_CLASS_PIPELINE[d.autoModel], undefined);
}

/** Whether the Hub would give this model a transformersInfo at all: it does for transformers repos. */
export function isTransformersModel(input: Pick<DerivationInput, "tags" | "libraryName">): boolean {
  return input.libraryName === "transformers" || input.tags.includes("transformers");
}

/** The derived `transformersInfo` and how it was found, or null when the model is not a transformers model. */
export function deriveTransformersInfo(input: DerivationInput): { info: TransformersInfo; source: DerivedSource } | null {
  if (!isTransformersModel(input)) return null;
  if (input.config) {
    const arch = firstArchitecture(input.config);
    // A config without architectures (adapters, tokenizer-only repos, GGUF exports) names no class:
    // the Hub says AutoModel and nothing more.
    return { info: arch === undefined ? { auto_model: "AutoModel" } : fromConfig(input.config, arch), source: "config" };
  }
  const modelType = modelTypeFromTags(input.tags);
  const byTags = modelType === undefined ? null : fromTags(modelType, input.tags, input.pipelineTag);
  if (byTags) return { info: byTags, source: "tags" };
  const byTask = fromTask(input.tags, input.pipelineTag);
  if (byTask) return { info: byTask, source: "task" };
  // Nothing names a class (GGUF and adapter repos, custom types without a task): the Hub's own
  // answer for 193 of the 198 such records in its 2024 data is a bare AutoModel.
  return { info: { auto_model: "AutoModel" }, source: "default" };
}

/**
 * The tasks /compare runs, keyed by the `task` in its URL. `text-generation` compares chat models
 * (the providers' "conversational" route, streamed) and `text-completion` plain text generation
 * (the providers' "text-generation" route: `mappingTask` is what the gateway and the catalogue call
 * a task); the others send one input to every column and draw the outputs side by side with the
 * task widgets' renderers.
 */
import { type ChatEvidence, isChatModel } from "#app/catalog/chat-model.ts";
import { splitLabels, tableColumns } from "#app/demos/shared/default-inputs.ts";
import { tabularData } from "#app/demos/tabular/predictions.ts";

export const COMPARE_TASKS = {
  "text-generation": { label: "Chat", mappingTask: "conversational", input: "chat" },
  "text-completion": { label: "Text Generation (completion, not chat)", mappingTask: "text-generation", input: "text" },
  "text-classification": { label: "Text Classification", mappingTask: "text-classification", input: "text" },
  "zero-shot-classification": { label: "Zero-Shot Classification", mappingTask: "zero-shot-classification", input: "text-labels" },
  "token-classification": { label: "Token Classification", mappingTask: "token-classification", input: "text" },
  "question-answering": { label: "Question Answering", mappingTask: "question-answering", input: "question-context" },
  "fill-mask": { label: "Fill-Mask", mappingTask: "fill-mask", input: "text" },
  summarization: { label: "Summarization", mappingTask: "summarization", input: "text" },
  translation: { label: "Translation", mappingTask: "translation", input: "text" },
  "feature-extraction": { label: "Feature Extraction", mappingTask: "feature-extraction", input: "text" },
  "sentence-similarity": { label: "Sentence Similarity", mappingTask: "sentence-similarity", input: "sentences" },
  "image-classification": { label: "Image Classification", mappingTask: "image-classification", input: "image" },
  "object-detection": { label: "Object Detection", mappingTask: "object-detection", input: "image" },
  "image-segmentation": { label: "Image Segmentation", mappingTask: "image-segmentation", input: "image" },
  "image-to-text": { label: "Image-to-Text", mappingTask: "image-to-text", input: "image" },
  "zero-shot-image-classification": { label: "Zero-Shot Image Classification", mappingTask: "zero-shot-image-classification", input: "image-labels" },
  "visual-question-answering": { label: "Visual Question Answering", mappingTask: "visual-question-answering", input: "image-question" },
  "document-question-answering": { label: "Document Question Answering", mappingTask: "document-question-answering", input: "document-question" },
  "text-to-image": { label: "Text-to-Image", mappingTask: "text-to-image", input: "text" },
  "image-to-image": { label: "Image-to-Image", mappingTask: "image-to-image", input: "image-prompt" },
  "text-to-video": { label: "Text-to-Video", mappingTask: "text-to-video", input: "text" },
  "automatic-speech-recognition": { label: "Automatic Speech Recognition", mappingTask: "automatic-speech-recognition", input: "audio" },
  "audio-classification": { label: "Audio Classification", mappingTask: "audio-classification", input: "audio" },
  "text-to-speech": { label: "Text-to-Speech", mappingTask: "text-to-speech", input: "text" },
  "audio-to-audio": { label: "Audio-to-Audio", mappingTask: "audio-to-audio", input: "audio" },
  "tabular-classification": { label: "Tabular Classification", mappingTask: "tabular-classification", input: "table" },
  "tabular-regression": { label: "Tabular Regression", mappingTask: "tabular-regression", input: "table" },
  "table-question-answering": { label: "Table Question Answering", mappingTask: "table-question-answering", input: "table-question" },
} as const satisfies Record<string, { label: string; mappingTask: string; input: CompareInputKind }>;

/**
 * The input form a task shows once for every column: a chat box, one text, an image, a question
 * with its context, a text with candidate labels, a source sentence with sentences to compare, an
 * image with candidate labels, a question or a prompt, a page (image or PDF) with a question, audio,
 * or a table (rows to predict, or a table with a question).
 */
export type CompareInputKind =
  | "chat"
  | "text"
  | "image"
  | "question-context"
  | "text-labels"
  | "sentences"
  | "image-labels"
  | "image-question"
  | "image-prompt"
  | "document-question"
  | "audio"
  | "table"
  | "table-question";

/** The file an input kind sends, as the gateway's media kinds name it; null when it sends none. */
export function inputFileKind(kind: CompareInputKind): "image" | "document" | "audio" | null {
  if (kind === "image" || kind === "image-labels" || kind === "image-question" || kind === "image-prompt") return "image";
  if (kind === "document-question") return "document";
  return kind === "audio" ? "audio" : null;
}

/** What the shared input form holds (each task reads the fields its input kind shows). */
export interface CompareInputValues {
  text: string;
  context: string;
  /** Comma-separated. */
  candidateLabels: string;
  /** One per line. */
  sentences: string;
  /** Rows, the first one the column names. */
  table: string[][];
}

const lines = (text: string) => text.split("\n").map((s) => s.trim()).filter((s) => s !== "");

/**
 * The request body's `inputs` and `parameters` for a non-chat task, as the task's widget builds
 * them, or what is missing. An image goes as the file, beside no `inputs`.
 */
export function buildCompareRequest(
  task: Exclude<CompareTask, "text-generation">,
  v: CompareInputValues,
  file: Blob | null,
): { ok: true; inputs?: unknown; parameters?: Record<string, unknown>; file?: Blob } | { ok: false; message: string } {
  const kind: CompareInputKind = COMPARE_TASKS[task].input;
  const fileKind = inputFileKind(kind);
  if (fileKind !== null && !file) return { ok: false, message: fileKind === "audio" ? "Choose an audio file." : fileKind === "document" ? "Choose a scanned page (an image) or a PDF." : "Choose an image." };
  switch (kind) {
    case "image":
    case "audio":
      return file ? { ok: true, file } : { ok: false, message: "Choose a file." };
    case "image-labels": {
      const candidates = splitLabels(v.candidateLabels);
      return file && candidates.length > 0 ? { ok: true, file, parameters: { candidate_labels: candidates } } : { ok: false, message: "Give at least one candidate label." };
    }
    // The file goes as the file; the question stays in the JSON, as the widgets send it (ADR 0021).
    case "image-question":
    case "document-question":
      return file && v.text.trim() ? { ok: true, inputs: { question: v.text }, file } : { ok: false, message: "Type a question about it." };
    // The prompt is optional: the spec's `prompt` parameter, sent only when given.
    case "image-prompt":
      return file ? { ok: true, file, ...(v.text.trim() ? { parameters: { prompt: v.text } } : {}) } : { ok: false, message: "Choose an image." };
    case "question-context":
      return v.text.trim() && v.context.trim() ? { ok: true, inputs: { question: v.text, context: v.context } } : { ok: false, message: "Give a question and a context." };
    case "text-labels": {
      const candidates = splitLabels(v.candidateLabels);
      if (!v.text.trim()) return { ok: false, message: "Type some text to classify." };
      return candidates.length > 0 ? { ok: true, inputs: v.text, parameters: { candidate_labels: candidates } } : { ok: false, message: "Give at least one candidate label." };
    }
    case "table": {
      const built = tabularData(v.table);
      return "problem" in built ? { ok: false, message: built.problem } : { ok: true, inputs: { data: built.data } };
    }
    case "table-question": {
      if (!v.text.trim()) return { ok: false, message: "Ask a question about the table." };
      const table = tableColumns(v.table);
      return Object.keys(table).length > 0 ? { ok: true, inputs: { query: v.text, table } } : { ok: false, message: "Name at least one column." };
    }
    case "sentences": {
      const sentences = lines(v.sentences);
      return v.text.trim() && sentences.length > 0 ? { ok: true, inputs: { source_sentence: v.text, sentences } } : { ok: false, message: "Give a source sentence and at least one sentence to compare." };
    }
    default:
      return v.text.trim() ? { ok: true, inputs: v.text } : { ok: false, message: "Type some text first." };
  }
}

/** The sentences a sentence-similarity answer scores, in order. */
export const comparedSentences = lines;

export type CompareTask = keyof typeof COMPARE_TASKS;

/** Tasks whose answer is a label chart, kept in a session as normalised label-scores. */
export const LABEL_SCORE_TASKS = ["text-classification", "image-classification", "audio-classification"] as const satisfies readonly CompareTask[];
export type LabelScoreTask = (typeof LABEL_SCORE_TASKS)[number];
/** Tasks whose answer is kept as it came and drawn by the widget's output component (compare-outputs.tsx). */
export type OutputTask = Exclude<CompareTask, "text-generation" | LabelScoreTask>;

export function isLabelScoreTask(task: CompareTask): task is LabelScoreTask {
  return (LABEL_SCORE_TASKS as readonly string[]).includes(task);
}

export const DEFAULT_COMPARE_TASK: CompareTask = "text-generation";

export function isCompareTask(task: string | null | undefined): task is CompareTask {
  return typeof task === "string" && Object.hasOwn(COMPARE_TASKS, task);
}

/**
 * The compare task a model can take part in: chat models (isChatModel) compare as chat, other text-generation models as completions, others by
 * their pipeline tag when /compare runs it; null otherwise.
 */
export function compareTaskFor(model: ChatEvidence): CompareTask | null {
  if (isChatModel(model)) return "text-generation";
  if (model.pipelineTag === "text-generation") return "text-completion";
  return isCompareTask(model.pipelineTag) ? model.pipelineTag : null;
}

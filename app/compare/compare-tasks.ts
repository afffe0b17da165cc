/**
 * The tasks /compare runs, keyed by the `task` in its URL. `text-generation` compares chat models
 * (the providers' "conversational" route, streamed) and `text-completion` plain text generation
 * (the providers' "text-generation" route: `mappingTask` is what the gateway and the catalogue call
 * a task); the others send one input to every column and draw the outputs side by side with the
 * task widgets' renderers. The list is derived from the task records (app/tasks/task-records.ts).
 */
import { type ChatEvidence, isChatModel, taskOf } from "#app/catalog/chat-model.ts";
import { splitLabels, tableColumns } from "#app/demos/shared/default-inputs.ts";
import { tabularData } from "#app/demos/tabular/predictions.ts";
import { type TaskInputKind, type DemoLoader, TASK_NAMES, type TaskName, TASKS } from "#app/tasks/task-records.ts";

type CompareSlugs = { [K in TaskName]: (typeof TASKS)[K]["compare"] extends { slug: infer S extends string } ? S : never };

/** A task in /compare's URL. */
export type CompareTask = CompareSlugs[TaskName];

export interface CompareEntry {
  label: string;
  /** The task as the gateway and the catalogue's mappings call it. */
  mappingTask: TaskName;
  input: TaskInputKind;
  /** The task's demo module, whose `Output` draws a column's answer. */
  demo: DemoLoader | null;
}

/** /compare's tasks, by the slug in its URL, in the records' order: the task records with a `compare` entry. */
function compareTasks(): Readonly<Record<CompareTask, CompareEntry>> {
  const built: Partial<Record<CompareTask, CompareEntry>> = {};
  for (const task of TASK_NAMES) {
    const record = TASKS[task];
    if (record.compare) built[record.compare.slug] = { label: record.compare.label, mappingTask: task, input: record.input, demo: record.demo };
  }
  const slugs = TASK_NAMES.flatMap((t) => {
    const c = TASKS[t].compare;
    return c ? [c.slug] : [];
  });
  const complete = (b: Partial<Record<CompareTask, CompareEntry>>): b is Record<CompareTask, CompareEntry> => slugs.every((s) => b[s] !== undefined);
  if (!complete(built)) throw new Error("Two task records share a /compare slug");
  return built;
}

export const COMPARE_TASKS = compareTasks();

/** The file an input kind sends, as the gateway's media kinds name it; null when it sends none. */
export function inputFileKind(kind: TaskInputKind): "image" | "document" | "audio" | null {
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
  const kind: TaskInputKind = COMPARE_TASKS[task].input;
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

/** Tasks whose answer is a label chart, kept in a session as normalised label-scores. */
export const LABEL_SCORE_TASKS = ["text-classification", "image-classification", "audio-classification"] as const satisfies readonly CompareTask[];
export type LabelScoreTask = (typeof LABEL_SCORE_TASKS)[number];
/** Tasks whose answer is kept as it came and drawn by the task record's output component. */
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
  const task = taskOf(model);
  if (task === "text-generation") return "text-completion";
  return isCompareTask(task) ? task : null;
}

/**
 * One record per task the site runs, keyed as the gateway and the providers' mappings name it (in
 * the way @huggingface/tasks keeps PIPELINE_DATA): its demo module (the model page's widget and
 * /compare's output), /compare's entry, and the file the gateway takes. Widget families, /compare's
 * list, the gateway's tasks and its file rules are derived from here; the library call for each
 * record is in task-calls.server.ts, whose `satisfies` asks for one per record.
 *
 * A task's components are behind its `demo` loader, never imported: a page loads the code of the
 * tasks it shows, not of all of them.
 */
import type { InferenceProvider } from "@huggingface/inference";
import type { ComponentType } from "react";
import type { WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import type { MediaKind } from "#app/inference/media-types.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

export type WidgetFamily = "text" | "audio" | "tabular" | "vision";

/**
 * What a task takes, as a form lays it out: a chat box, one text, an image, a question with its
 * context, a text with candidate labels, a source sentence with sentences to compare, an image with
 * candidate labels, a question or a prompt, a page (image or PDF) with a question, audio, or a table
 * (rows to predict, or a table with a question). /compare shows that form once for every column;
 * a widget's starting inputs are read from the model's examples by it.
 */
export type TaskInputKind =
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

/**
 * A task's demo module: the model page's widget, and how a /compare column draws an answer (not
 * there where the page draws it itself: label charts, which a session keeps as label-scores).
 * task-records.test.ts loads each one and checks it exports what its record says.
 */
export interface DemoModule {
  Widget: ComponentType<WidgetProps>;
  Output?: ComponentType<OutputProps>;
}

export type DemoLoader = () => Promise<DemoModule>;

export interface TaskRecord {
  /** The model page's widget family; null when the task has no widget (chat has its own demo). */
  family: WidgetFamily | null;
  /** The task's demo module, loaded only when a page shows the task; null when it has none. */
  demo: DemoLoader | null;
  /** What the task takes. */
  input: TaskInputKind;
  /** /compare's entry: the task in its URL and its label; null when /compare does not run it. */
  compare: { slug: string; label: string } | null;
  /** The file the gateway takes: `blob`, inputs is the file; `image-and-question`, inputs is {image, question}. Null: JSON only. */
  file: { accepts: readonly MediaKind[]; shape: "blob" | "image-and-question" } | null;
  /**
   * The providers whose helper in @huggingface/inference 3.13.1 handles the task (`PROVIDERS` in
   * src/lib/getProviderHelper.ts, which the package does not export), so the snippets panel asks
   * for no other pair: the library would log a stack trace and return no snippets.
   * providers.test.ts checks these against the library itself.
   */
  providers: readonly InferenceProvider[];
}

export const TASKS = {
  conversational: {
    family: null,
    demo: null,
    input: "chat",
    compare: { slug: "text-generation", label: "Chat" },
    file: null,
    providers: ["cerebras", "cohere", "featherless-ai", "fireworks-ai", "groq", "hf-inference", "hyperbolic", "nebius", "novita", "nscale", "openai", "ovhcloud", "sambanova", "together"],
  },
  "text-classification": {
    family: "text",
    demo: () => import("#app/demos/text/text-classification.tsx"),
    input: "text",
    compare: { slug: "text-classification", label: "Text Classification" },
    file: null,
    providers: ["hf-inference"],
  },
  "zero-shot-classification": {
    family: "text",
    demo: () => import("#app/demos/text/zero-shot-classification.tsx"),
    input: "text-labels",
    compare: { slug: "zero-shot-classification", label: "Zero-Shot Classification" },
    file: null,
    providers: ["hf-inference"],
  },
  "token-classification": {
    family: "text",
    demo: () => import("#app/demos/text/token-classification.tsx"),
    input: "text",
    compare: { slug: "token-classification", label: "Token Classification" },
    file: null,
    providers: ["hf-inference"],
  },
  "fill-mask": {
    family: "text",
    demo: () => import("#app/demos/text/fill-mask.tsx"),
    input: "text",
    compare: { slug: "fill-mask", label: "Fill-Mask" },
    file: null,
    providers: ["hf-inference"],
  },
  "question-answering": {
    family: "text",
    demo: () => import("#app/demos/text/question-answering.tsx"),
    input: "question-context",
    compare: { slug: "question-answering", label: "Question Answering" },
    file: null,
    providers: ["hf-inference"],
  },
  summarization: {
    family: "text",
    demo: () => import("#app/demos/text/text-to-text.tsx"),
    input: "text",
    compare: { slug: "summarization", label: "Summarization" },
    file: null,
    providers: ["hf-inference"],
  },
  translation: {
    family: "text",
    demo: () => import("#app/demos/text/text-to-text.tsx"),
    input: "text",
    compare: { slug: "translation", label: "Translation" },
    file: null,
    providers: ["hf-inference"],
  },
  "text-generation": {
    family: "text",
    demo: () => import("#app/demos/text/text-generation.tsx"),
    input: "text",
    // /compare's text-generation is chat; plain completion has a task of its own in the URL.
    compare: { slug: "text-completion", label: "Text Generation (completion, not chat)" },
    file: null,
    providers: ["featherless-ai", "groq", "hf-inference", "hyperbolic", "nebius", "novita", "ovhcloud", "together"],
  },
  "feature-extraction": {
    family: "text",
    demo: () => import("#app/demos/text/feature-extraction.tsx"),
    input: "text",
    compare: { slug: "feature-extraction", label: "Feature Extraction" },
    file: null,
    providers: ["hf-inference", "nebius", "sambanova"],
  },
  "sentence-similarity": {
    family: "text",
    demo: () => import("#app/demos/text/sentence-similarity.tsx"),
    input: "sentences",
    compare: { slug: "sentence-similarity", label: "Sentence Similarity" },
    file: null,
    providers: ["hf-inference"],
  },
  "table-question-answering": {
    family: "text",
    demo: () => import("#app/demos/text/table-question-answering.tsx"),
    input: "table-question",
    compare: { slug: "table-question-answering", label: "Table Question Answering" },
    file: null,
    providers: ["hf-inference"],
  },
  "automatic-speech-recognition": {
    family: "audio",
    demo: () => import("#app/demos/audio/automatic-speech-recognition.tsx"),
    input: "audio",
    compare: { slug: "automatic-speech-recognition", label: "Automatic Speech Recognition" },
    file: { accepts: ["audio"], shape: "blob" },
    providers: ["fal-ai", "hf-inference"],
  },
  "audio-classification": {
    family: "audio",
    demo: () => import("#app/demos/audio/audio-classification.tsx"),
    input: "audio",
    compare: { slug: "audio-classification", label: "Audio Classification" },
    file: { accepts: ["audio"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "audio-to-audio": {
    family: "audio",
    demo: () => import("#app/demos/audio/audio-to-audio.tsx"),
    input: "audio",
    compare: { slug: "audio-to-audio", label: "Audio-to-Audio" },
    file: { accepts: ["audio"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "text-to-speech": {
    family: "audio",
    demo: () => import("#app/demos/audio/text-to-speech.tsx"),
    input: "text",
    compare: { slug: "text-to-speech", label: "Text-to-Speech" },
    file: null,
    providers: ["fal-ai", "hf-inference", "replicate"],
  },
  "tabular-classification": {
    family: "tabular",
    demo: () => import("#app/demos/tabular/tabular-classification.tsx"),
    input: "table",
    compare: { slug: "tabular-classification", label: "Tabular Classification" },
    file: null,
    providers: ["hf-inference"],
  },
  "tabular-regression": {
    family: "tabular",
    demo: () => import("#app/demos/tabular/tabular-regression.tsx"),
    input: "table",
    compare: { slug: "tabular-regression", label: "Tabular Regression" },
    file: null,
    providers: ["hf-inference"],
  },
  "image-classification": {
    family: "vision",
    demo: () => import("#app/demos/vision/image-classification.tsx"),
    input: "image",
    compare: { slug: "image-classification", label: "Image Classification" },
    file: { accepts: ["image"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "zero-shot-image-classification": {
    family: "vision",
    demo: () => import("#app/demos/vision/zero-shot-image-classification.tsx"),
    input: "image-labels",
    compare: { slug: "zero-shot-image-classification", label: "Zero-Shot Image Classification" },
    file: { accepts: ["image"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "object-detection": {
    family: "vision",
    demo: () => import("#app/demos/vision/object-detection.tsx"),
    input: "image",
    compare: { slug: "object-detection", label: "Object Detection" },
    file: { accepts: ["image"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "image-segmentation": {
    family: "vision",
    demo: () => import("#app/demos/vision/image-segmentation.tsx"),
    input: "image",
    compare: { slug: "image-segmentation", label: "Image Segmentation" },
    file: { accepts: ["image"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "image-to-text": {
    family: "vision",
    demo: () => import("#app/demos/vision/image-to-text.tsx"),
    input: "image",
    compare: { slug: "image-to-text", label: "Image-to-Text" },
    file: { accepts: ["image"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "visual-question-answering": {
    family: "vision",
    demo: () => import("#app/demos/vision/visual-question-answering.tsx"),
    input: "image-question",
    compare: { slug: "visual-question-answering", label: "Visual Question Answering" },
    file: { accepts: ["image"], shape: "image-and-question" },
    providers: ["hf-inference"],
  },
  "document-question-answering": {
    family: "vision",
    demo: () => import("#app/demos/vision/document-question-answering.tsx"),
    input: "document-question",
    compare: { slug: "document-question-answering", label: "Document Question Answering" },
    file: { accepts: ["image", "document"], shape: "image-and-question" },
    providers: ["hf-inference"],
  },
  "text-to-image": {
    family: "vision",
    demo: () => import("#app/demos/vision/text-to-image.tsx"),
    input: "text",
    compare: { slug: "text-to-image", label: "Text-to-Image" },
    file: null,
    providers: ["black-forest-labs", "fal-ai", "hf-inference", "hyperbolic", "nebius", "nscale", "replicate", "together"],
  },
  "image-to-image": {
    family: "vision",
    demo: () => import("#app/demos/vision/image-to-image.tsx"),
    input: "image-prompt",
    compare: { slug: "image-to-image", label: "Image-to-Image" },
    file: { accepts: ["image"], shape: "blob" },
    providers: ["hf-inference"],
  },
  "text-to-video": {
    family: "vision",
    demo: () => import("#app/demos/vision/text-to-video.tsx"),
    input: "text",
    compare: { slug: "text-to-video", label: "Text-to-Video" },
    file: null,
    providers: ["fal-ai", "replicate"],
  },
  // 3.13.1 routes text-to-audio (hf-inference's helper) but has no widget or /compare entry for it.
  "text-to-audio": {
    family: null,
    demo: null,
    input: "text",
    compare: null,
    file: null,
    providers: ["hf-inference"],
  },
} as const satisfies Record<string, TaskRecord>;

export type TaskName = keyof typeof TASKS;

export function isTaskName(task: string | null | undefined): task is TaskName {
  return typeof task === "string" && Object.hasOwn(TASKS, task);
}

/** Every task, in the records' order. */
export const TASK_NAMES: readonly TaskName[] = Object.keys(TASKS).filter(isTaskName);

type WithWidget<F extends WidgetFamily> = { [K in TaskName]: (typeof TASKS)[K]["family"] extends F ? K : never }[TaskName];

/** The tasks with a model-page widget. */
export type WidgetTask = WithWidget<WidgetFamily>;

const familyTasks = <F extends WidgetFamily>(family: F): ReadonlyArray<WithWidget<F>> =>
  TASK_NAMES.filter((t): t is WithWidget<F> => TASKS[t].family === family);

/** The tasks with a widget, by family, in the records' order. */
export const WIDGET_FAMILIES = {
  text: familyTasks("text"),
  audio: familyTasks("audio"),
  tabular: familyTasks("tabular"),
  vision: familyTasks("vision"),
} satisfies Record<WidgetFamily, ReadonlyArray<WidgetTask>>;

/** Every task with a widget, in the families' order. */
export const WIDGET_TASKS: readonly WidgetTask[] = Object.values(WIDGET_FAMILIES).flat();

export function isWidgetTask(task: string | null): task is WidgetTask {
  return isTaskName(task) && TASKS[task].family !== null;
}

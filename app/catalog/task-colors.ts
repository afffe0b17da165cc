import type { Modality, PipelineType } from "@huggingface/tasks";
import { MODALITIES, MODALITY_LABELS, TASK_INDEX } from "#app/catalog/catalog-index.generated.ts";

export type TaskColor = "blue" | "green" | "indigo" | "orange" | "red" | "yellow";

/**
 * Task colours as @huggingface/tasks defined them in `PIPELINE_DATA[task].color` up to 0.19.15.
 * The version @huggingface/inference 3.13.1 resolves (0.19.90) dropped the field, so the last
 * published values are kept here as data; tasks added since fall back to their modality colour.
 * See docs/decisions/0004-task-colours.md.
 */
export const TASK_COLORS: Record<string, TaskColor> = {
  "text-classification": "orange",
  "token-classification": "blue",
  "table-question-answering": "green",
  "question-answering": "blue",
  "zero-shot-classification": "yellow",
  "translation": "green",
  "summarization": "indigo",
  "feature-extraction": "red",
  "text-generation": "indigo",
  "text2text-generation": "indigo",
  "fill-mask": "red",
  "sentence-similarity": "yellow",
  "text-to-speech": "yellow",
  "text-to-audio": "yellow",
  "automatic-speech-recognition": "yellow",
  "audio-to-audio": "blue",
  "audio-classification": "green",
  "audio-text-to-text": "red",
  "voice-activity-detection": "red",
  "depth-estimation": "yellow",
  "image-classification": "blue",
  "object-detection": "yellow",
  "image-segmentation": "green",
  "text-to-image": "yellow",
  "image-to-text": "red",
  "image-to-image": "indigo",
  "image-to-video": "indigo",
  "unconditional-image-generation": "green",
  "video-classification": "blue",
  "reinforcement-learning": "red",
  "robotics": "blue",
  "tabular-classification": "blue",
  "tabular-regression": "blue",
  "tabular-to-text": "blue",
  "table-to-text": "blue",
  "multiple-choice": "blue",
  "text-ranking": "red",
  "text-retrieval": "indigo",
  "time-series-forecasting": "blue",
  "text-to-video": "green",
  "image-text-to-text": "red",
  "visual-question-answering": "red",
  "document-question-answering": "blue",
  "zero-shot-image-classification": "yellow",
  "graph-ml": "green",
  "mask-generation": "indigo",
  "zero-shot-object-detection": "yellow",
  "text-to-3d": "yellow",
  "image-to-3d": "green",
  "image-feature-extraction": "indigo",
  "video-text-to-text": "blue",
  "keypoint-detection": "red",
  "visual-document-retrieval": "yellow",
  "any-to-any": "yellow",
  "other": "blue",
};

const MODALITY_COLORS: Record<Modality, TaskColor> = {
  nlp: "blue",
  audio: "green",
  cv: "red",
  multimodal: "indigo",
  tabular: "orange",
  rl: "yellow",
  other: "blue",
};

/**
 * Literal class names per colour, so Tailwind sees every class it must generate. The chip
 * pairs a tinted background with a text colour that meets WCAG AA contrast in both themes.
 */
export const COLOR_CLASSES: Record<TaskColor, { chip: string; dot: string; accent: string; bar: string }> = {
  blue: {
    chip: "bg-blue-50 text-blue-800 ring-blue-200 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-800",
    dot: "bg-blue-500",
    accent: "border-blue-500",
    bar: "bg-blue-500/80",
  },
  green: {
    chip: "bg-green-50 text-green-800 ring-green-200 dark:bg-green-950 dark:text-green-200 dark:ring-green-800",
    dot: "bg-green-500",
    accent: "border-green-500",
    bar: "bg-green-500/80",
  },
  indigo: {
    chip: "bg-indigo-50 text-indigo-800 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-200 dark:ring-indigo-800",
    dot: "bg-indigo-500",
    accent: "border-indigo-500",
    bar: "bg-indigo-500/80",
  },
  orange: {
    chip: "bg-orange-50 text-orange-800 ring-orange-200 dark:bg-orange-950 dark:text-orange-200 dark:ring-orange-800",
    dot: "bg-orange-500",
    accent: "border-orange-500",
    bar: "bg-orange-500/80",
  },
  red: {
    chip: "bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
    dot: "bg-red-500",
    accent: "border-red-500",
    bar: "bg-red-500/80",
  },
  yellow: {
    chip: "bg-yellow-50 text-yellow-800 ring-yellow-200 dark:bg-yellow-950 dark:text-yellow-200 dark:ring-yellow-800",
    dot: "bg-yellow-500",
    accent: "border-yellow-500",
    bar: "bg-yellow-500/80",
  },
};

export interface TaskInfo {
  id: string;
  name: string;
  modality: Modality;
  modalityLabel: string;
  color: TaskColor;
  hideInModels: boolean;
  hideInDatasets: boolean;
}

export function isPipelineType(id: string): id is PipelineType {
  return Object.hasOwn(TASK_INDEX, id);
}

/**
 * Tasks @huggingface/tasks has since retired that Hub rows still carry (text2text-generation:
 * 30,921 rows of the 2024 dump, 158 of the bundled catalogue), with the name and modality its
 * `PIPELINE_DATA` gave them, so a listing names them as the Hub did rather than by their id.
 */
const RETIRED_TASKS: Readonly<Record<string, { name: string; modality: Modality }>> = {
  "text2text-generation": { name: "Text2Text Generation", modality: "nlp" },
};

function retiredTask(id: string): { name: string; modality: Modality } | undefined {
  return Object.hasOwn(RETIRED_TASKS, id) ? RETIRED_TASKS[id] : undefined;
}

/** A task the catalogue can filter by: today's @huggingface/tasks list plus the retired ones. */
export function isCatalogueTask(id: string): boolean {
  return isPipelineType(id) || retiredTask(id) !== undefined;
}

/** Name, modality and colour for a pipeline tag; unknown tags get a neutral description. */
export function getTaskInfo(id: string): TaskInfo {
  if (isPipelineType(id)) {
    const d = TASK_INDEX[id];
    return {
      id,
      name: d.name,
      modality: d.modality,
      modalityLabel: MODALITY_LABELS[d.modality],
      color: TASK_COLORS[id] ?? MODALITY_COLORS[d.modality],
      hideInModels: d.hideInModels,
      hideInDatasets: d.hideInDatasets,
    };
  }
  const retired = retiredTask(id);
  if (retired) {
    const { name, modality } = retired;
    return { id, name, modality, modalityLabel: MODALITY_LABELS[modality], color: TASK_COLORS[id] ?? MODALITY_COLORS[modality], hideInModels: false, hideInDatasets: false };
  }
  return { id, name: id, modality: "other", modalityLabel: MODALITY_LABELS.other, color: "blue", hideInModels: false, hideInDatasets: false };
}

export { MODALITIES, MODALITY_LABELS };

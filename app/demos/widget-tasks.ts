/**
 * The tasks that have a widget, by family. The server offers a widget only for these; the
 * dispatcher (task-widget.tsx) holds one lazily loaded component per entry. A new family adds
 * its tasks here and its loaders there.
 */
export const WIDGET_FAMILIES = {
  text: [
    "text-classification",
    "zero-shot-classification",
    "token-classification",
    "fill-mask",
    "question-answering",
    "summarization",
    "translation",
    "text-generation",
    "feature-extraction",
    "sentence-similarity",
    "table-question-answering",
  ],
  audio: ["automatic-speech-recognition", "audio-classification", "audio-to-audio", "text-to-speech"],
  tabular: ["tabular-classification", "tabular-regression"],
  vision: [
    "image-classification",
    "zero-shot-image-classification",
    "object-detection",
    "image-segmentation",
    "image-to-text",
    "visual-question-answering",
    "document-question-answering",
    "text-to-image",
    "image-to-image",
    "text-to-video",
  ],
} as const satisfies Record<string, readonly string[]>;

/** Every task with a widget, in the families' order. */
export const WIDGET_TASKS: readonly string[] = Object.values(WIDGET_FAMILIES).flat();

export type WidgetFamily = keyof typeof WIDGET_FAMILIES;
export type WidgetTask = (typeof WIDGET_FAMILIES)[WidgetFamily][number];

const ALL: ReadonlySet<string> = new Set(Object.values(WIDGET_FAMILIES).flat());

export function isWidgetTask(task: string | null): task is WidgetTask {
  return task !== null && ALL.has(task);
}

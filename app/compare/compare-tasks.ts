/**
 * The tasks /compare runs, keyed by the `task` in its URL. `text-generation` compares chat models
 * (the providers' "conversational" route, streamed); the others send one input to every column
 * and draw the outputs side by side with the task widgets' renderers.
 */
export const COMPARE_TASKS = {
  "text-generation": { label: "Chat", mappingTask: "conversational", input: "chat" },
  "text-classification": { label: "Text Classification", mappingTask: "text-classification", input: "text" },
  "image-classification": { label: "Image Classification", mappingTask: "image-classification", input: "image" },
} as const satisfies Record<string, { label: string; mappingTask: string; input: "chat" | "text" | "image" }>;

export type CompareTask = keyof typeof COMPARE_TASKS;

export const DEFAULT_COMPARE_TASK: CompareTask = "text-generation";

export function isCompareTask(task: string | null | undefined): task is CompareTask {
  return typeof task === "string" && Object.hasOwn(COMPARE_TASKS, task);
}

/**
 * The compare task a model can take part in: chat models (by tag, or by a provider's
 * conversational mapping) compare as chat, others by their
 * pipeline tag when /compare runs it; null otherwise.
 */
export function compareTaskFor(model: { pipelineTag: string | null; tags: readonly string[]; inferenceProviderMapping?: ReadonlyArray<{ task: string }> }): CompareTask | null {
  const chatPipeline = model.pipelineTag === "text-generation" || model.pipelineTag === "image-text-to-text";
  if (chatPipeline && (model.tags.includes("conversational") || model.inferenceProviderMapping?.some((m) => m.task === "conversational"))) return "text-generation";
  return model.pipelineTag !== "text-generation" && isCompareTask(model.pipelineTag) ? model.pipelineTag : null;
}

import type { CatalogModel } from "#app/catalog/model-record.ts";

const CHAT_PIPELINES: ReadonlySet<string> = new Set(["text-generation", "image-text-to-text"]);

export type ChatEvidence = Pick<CatalogModel, "pipelineTag" | "tags"> & {
  inferenceProviderMapping?: ReadonlyArray<{ task: string }>;
  chatTemplate?: unknown;
};

/**
 * A model's task: its pipeline tag, else the one task its provider mappings name, the conversational
 * task being text generation's chat (as the Hub tags chat models `text-generation` or
 * `image-text-to-text`). The newest rows arrive with no pipeline tag (`Qwen/Qwen2.5-72B-Instruct`,
 * `deepseek-ai/DeepSeek-V3`), and only their mapping says what they do. Null when the mappings
 * disagree or there are none. The Hub-shaped API still says `pipeline_tag` as the row holds it.
 */
export function taskOf(model: Pick<ChatEvidence, "pipelineTag" | "inferenceProviderMapping">): string | null {
  if (model.pipelineTag !== null) return model.pipelineTag;
  const mapped = new Set((model.inferenceProviderMapping ?? []).map((m) => (m.task === "conversational" ? "text-generation" : m.task)));
  return mapped.size === 1 ? [...mapped][0]! : null;
}

/**
 * Whether a text or vision-language model chats, from the record as a whole: the Hub's
 * `conversational` tag, a provider mapping for the conversational task, or a chat template of its
 * own. The newest chat models arrive as list rows with no tags at all (`meta-llama/Llama-3.3-70B-Instruct`
 * has `tags: []`), and only their provider mapping says what they are. The one rule every page,
 * snippet and demo asks.
 */
export function isChatModel(model: ChatEvidence): boolean {
  const task = taskOf(model);
  if (task === null || !CHAT_PIPELINES.has(task)) return false;
  if (model.tags.includes("conversational")) return true;
  if (model.inferenceProviderMapping?.some((m) => m.task === "conversational")) return true;
  return model.chatTemplate !== undefined && model.chatTemplate !== null;
}

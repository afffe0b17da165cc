import type { CatalogModel } from "#app/catalog/model-record.ts";

const CHAT_PIPELINES: ReadonlySet<string> = new Set(["text-generation", "image-text-to-text"]);

export type ChatEvidence = Pick<CatalogModel, "pipelineTag" | "tags"> & {
  inferenceProviderMapping?: ReadonlyArray<{ task: string }>;
  chatTemplate?: unknown;
};

/**
 * Whether a text or vision-language model chats, from the record as a whole: the Hub's
 * `conversational` tag, a provider mapping for the conversational task, or a chat template of its
 * own. The newest chat models arrive as list rows with no tags at all (`meta-llama/Llama-3.3-70B-Instruct`
 * has `tags: []`), and only their provider mapping says what they are. The one rule every page,
 * snippet and demo asks.
 */
export function isChatModel(model: ChatEvidence): boolean {
  if (model.pipelineTag === null || !CHAT_PIPELINES.has(model.pipelineTag)) return false;
  if (model.tags.includes("conversational")) return true;
  if (model.inferenceProviderMapping?.some((m) => m.task === "conversational")) return true;
  return model.chatTemplate !== undefined && model.chatTemplate !== null;
}

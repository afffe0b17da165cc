// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Cohere (cohere): the OpenAI-compatible API at api.cohere.com and router.huggingface.co/cohere.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const cohere = openAiCompatibleProvider({
  id: "cohere",
  hosts: ["api.cohere.com"],
  systemFingerprint: true,
});

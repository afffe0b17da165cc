// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Cerebras (cerebras): the OpenAI-compatible API at api.cerebras.ai and router.huggingface.co/cerebras.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const cerebras = openAiCompatibleProvider({
  id: "cerebras",
  hosts: ["api.cerebras.ai"],
  systemFingerprint: true,
});

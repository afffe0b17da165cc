// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// SambaNova (sambanova): the OpenAI-compatible API at api.sambanova.ai and router.huggingface.co/sambanova.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const sambanova = openAiCompatibleProvider({
  id: "sambanova",
  hosts: ["api.sambanova.ai"],
  systemFingerprint: true,
});

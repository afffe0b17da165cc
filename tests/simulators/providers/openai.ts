// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// OpenAI (openai): the OpenAI-compatible API at api.openai.com and router.huggingface.co/openai.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const openai = openAiCompatibleProvider({
  id: "openai",
  hosts: ["api.openai.com"],
  systemFingerprint: true,
});

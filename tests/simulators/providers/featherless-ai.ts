// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Featherless AI (featherless-ai): the OpenAI-compatible API at api.featherless.ai and router.huggingface.co/featherless-ai.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const featherlessAi = openAiCompatibleProvider({
  id: "featherless-ai",
  hosts: ["api.featherless.ai"],
  systemFingerprint: true,
});

// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Fireworks AI (fireworks-ai): the OpenAI-compatible API at api.fireworks.ai and router.huggingface.co/fireworks-ai.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const fireworksAi = openAiCompatibleProvider({
  id: "fireworks-ai",
  hosts: ["api.fireworks.ai"],
  systemFingerprint: true,
});

// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Novita (novita): the OpenAI-compatible API at api.novita.ai and router.huggingface.co/novita.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const novita = openAiCompatibleProvider({
  id: "novita",
  hosts: ["api.novita.ai"],
  systemFingerprint: true,
});

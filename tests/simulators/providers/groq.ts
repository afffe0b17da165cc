// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Groq (groq): the OpenAI-compatible API at api.groq.com and router.huggingface.co/groq.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const groq = openAiCompatibleProvider({
  id: "groq",
  hosts: ["api.groq.com"],
  systemFingerprint: true,
});

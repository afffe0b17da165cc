// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Nebius AI Studio (nebius): the OpenAI-compatible API at api.studio.nebius.ai and router.huggingface.co/nebius.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

// Chat answers carry no system_fingerprint: 3.13.1 tolerates its absence for this provider.
export const nebius = openAiCompatibleProvider({
  id: "nebius",
  hosts: ["api.studio.nebius.ai"],
  systemFingerprint: false,
});

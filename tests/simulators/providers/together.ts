// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Together AI (together): the OpenAI-compatible API at api.together.xyz and router.huggingface.co/together.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

// Chat answers carry no system_fingerprint: 3.13.1 tolerates its absence for this provider.
export const together = openAiCompatibleProvider({
  id: "together",
  hosts: ["api.together.xyz"],
  systemFingerprint: false,
});

// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Nscale (nscale): the OpenAI-compatible API at inference.api.nscale.com and router.huggingface.co/nscale.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const nscale = openAiCompatibleProvider({
  id: "nscale",
  hosts: ["inference.api.nscale.com"],
  systemFingerprint: true,
});

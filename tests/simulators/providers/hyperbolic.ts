// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Hyperbolic (hyperbolic): the OpenAI-compatible API at api.hyperbolic.xyz and router.huggingface.co/hyperbolic.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const hyperbolic = openAiCompatibleProvider({
  id: "hyperbolic",
  hosts: ["api.hyperbolic.xyz"],
  systemFingerprint: true,
  // Hyperbolic answers image generation with its own shape, not OpenAI's data list.
  imageAnswer: ({ b64 }) => ({ images: [{ index: 0, image: b64 }] }),
});

// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// OVHcloud AI Endpoints (ovhcloud): the OpenAI-compatible API at oai.endpoints.kepler.ai.cloud.ovh.net and router.huggingface.co/ovhcloud.
import { openAiCompatibleProvider } from "../common/openai-compatible.ts";

export const ovhcloud = openAiCompatibleProvider({
  id: "ovhcloud",
  hosts: ["oai.endpoints.kepler.ai.cloud.ovh.net"],
  systemFingerprint: true,
});

// Provider x task pairs whose model-page snippets are executed against the provider SIMULATOR.
// Model ids and provider ids come from tests/simulators/hub-fixture.ts (real Hub mappings).
import type { ModelDataMinimal } from "@huggingface/tasks";
import { HUB_FIXTURE_MODELS } from "../simulators/hub-fixture.ts";

export interface SnippetCase {
  /** Provider as @huggingface/inference names it. */
  provider: string;
  /** The task the snippet is for: "conversational" for chat, else the pipeline tag. */
  task: string;
  streaming: boolean;
  model: ModelDataMinimal;
  providerId: string;
  /** Token the snippet is generated with: an hf_ token routes through router.huggingface.co, anything else goes direct. */
  accessToken: string;
  auth: "hf-token" | "provider-key";
}

const MASK_TOKENS: Record<string, string> = { "google-bert/bert-base-uncased": "[MASK]" };

function caseFor(provider: string, modelId: string, streaming = false, accessToken = "hf_snippet_placeholder_token"): SnippetCase {
  const hub = HUB_FIXTURE_MODELS.find((m) => m.id === modelId);
  const mapping = hub?.inferenceProviderMapping[provider];
  if (!hub || !mapping) throw new Error(`No fixture mapping for ${provider} / ${modelId}`);
  const mask = MASK_TOKENS[modelId];
  return {
    provider,
    task: mapping.task,
    streaming,
    providerId: mapping.providerId,
    accessToken,
    auth: accessToken.startsWith("hf_") ? "hf-token" : "provider-key",
    model: {
      id: hub.id,
      pipeline_tag: hub.pipeline_tag as ModelDataMinimal["pipeline_tag"],
      tags: hub.tags,
      inference: "",
      ...(mask ? { mask_token: mask } : {}),
    },
  };
}

const CHAT_MODEL = "meta-llama/Llama-3.3-70B-Instruct";

export const SNIPPET_CASES: SnippetCase[] = [
  ...["together", "groq", "fireworks-ai", "nebius", "sambanova", "cerebras", "novita", "hf-inference"].flatMap((p) => [
    caseFor(p, CHAT_MODEL),
    caseFor(p, CHAT_MODEL, true),
  ]),
  caseFor("cohere", "CohereLabs/c4ai-command-r-plus"),
  caseFor("cohere", "CohereLabs/c4ai-command-r-plus", true),
  caseFor("together", CHAT_MODEL, false, "together_placeholder_key"),
  caseFor("together", CHAT_MODEL, true, "together_placeholder_key"),
  caseFor("hf-inference", "distilbert/distilbert-base-uncased-finetuned-sst-2-english"),
  caseFor("hf-inference", "dslim/bert-base-NER"),
  caseFor("hf-inference", "google-bert/bert-base-uncased"),
  // question-answering is left out: 3.13.1 has a questionAnswering template for Python only.
  caseFor("hf-inference", "facebook/bart-large-cnn"),
  caseFor("hf-inference", "BAAI/bge-small-en-v1.5"),
  caseFor("hf-inference", "google/vit-base-patch16-224"),
  caseFor("hf-inference", "black-forest-labs/FLUX.1-dev"),
  caseFor("hf-inference", "openai/whisper-large-v3"),
  caseFor("fal-ai", "black-forest-labs/FLUX.1-dev"),
  caseFor("fal-ai", "Lightricks/LTX-Video"),
  caseFor("fal-ai", "openai/whisper-large-v3"),
  caseFor("replicate", "black-forest-labs/FLUX.1-dev"),
  caseFor("replicate", "Lightricks/LTX-Video"),
];

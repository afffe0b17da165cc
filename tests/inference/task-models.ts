// Hub records for the tasks the simulator's bundled fixture (tests/simulators/hub-fixture.ts)
// does not cover, one real Hub model per task, mapped to the providers @huggingface/inference
// 3.13.1 routes that task to. Added to the simulator and to the gateway's test catalogue.
import type { HubFixtureMapping, HubFixtureModel } from "#tests/simulators/hub-fixture.ts";

const live = (providerId: string, task: string): HubFixtureMapping => ({ status: "live", providerId, task });

function model(id: string, task: string, providers: Record<string, string> = { "hf-inference": id }): HubFixtureModel {
  return { id, pipeline_tag: task, tags: [], inferenceProviderMapping: Object.fromEntries(Object.entries(providers).map(([p, providerId]) => [p, live(providerId, task)])) };
}

export const TASK_MODELS: HubFixtureModel[] = [
  model("superb/hubert-large-superb-er", "audio-classification"),
  model("speechbrain/sepformer-wham", "audio-to-audio"),
  model("facebook/detr-resnet-50-panoptic", "image-segmentation"),
  model("timbrooks/instruct-pix2pix", "image-to-image"),
  model("Salesforce/blip-image-captioning-large", "image-to-text"),
  model("facebook/detr-resnet-50", "object-detection"),
  model("openai/clip-vit-large-patch14", "zero-shot-image-classification"),
  model("impira/layoutlm-document-qa", "document-question-answering"),
  model("dandelin/vilt-b32-finetuned-vqa", "visual-question-answering"),
  model("vvmnnnkv/wine-quality", "tabular-classification"),
  model("scikit-learn/Fish-Weight", "tabular-regression"),
  model("facebook/bart-large-mnli", "zero-shot-classification"),
  model("google/tapas-base-finetuned-wtq", "table-question-answering"),
  model("sentence-transformers/all-MiniLM-L6-v2", "sentence-similarity"),
  model("google-t5/t5-small", "translation"),
  model("facebook/mms-tts-eng", "text-to-speech"),
  model("facebook/musicgen-small", "text-to-audio"),
  model("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image", { "hf-inference": "stabilityai/stable-diffusion-xl-base-1.0", nscale: "stabilityai/stable-diffusion-xl-base-1.0" }),
  // A base (not chat) model, served as text-generation by every provider 3.13.1 has a text-generation helper for.
  model("meta-llama/Llama-3.1-8B", "text-generation", {
    "hf-inference": "meta-llama/Llama-3.1-8B",
    together: "meta-llama/Meta-Llama-3.1-8B",
    "featherless-ai": "meta-llama/Meta-Llama-3.1-8B",
    ovhcloud: "Llama-3.1-8B",
    hyperbolic: "meta-llama/Meta-Llama-3.1-8B",
    nebius: "meta-llama/Meta-Llama-3.1-8B",
    novita: "meta-llama/llama-3.1-8b",
    groq: "llama-3.1-8b",
  }),
];

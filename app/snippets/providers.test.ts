import type { InferenceProvider } from "@huggingface/inference";
import { INFERENCE_PROVIDERS, PROVIDERS_OR_POLICIES, snippets } from "@huggingface/inference";
import type { ModelData, WidgetType } from "@huggingface/tasks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fixtureById, loadInferenceFixtures, loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import type { ProviderMapping } from "#app/catalog/model-record.ts";
import { isPipelineType } from "#app/snippets/model-data.ts";
import { providerLabel } from "#app/snippets/provider-label.ts";
import {
  AUTO_POLICY,
  PROVIDER_TASKS,
  SUPPORTED_PROVIDERS,
  providerServesTask,
  snippetTaskFor,
  stagingProvidersFor,
  supportedProvidersFor,
  unsupportedProvidersFor,
} from "#app/snippets/providers.ts";

const inference = loadInferenceFixtures();
const library = loadLibraryFixtures().map((f) => f.catalog);

describe("provider list", () => {
  it("is the library's own list, which for 3.13.1 is these 17 providers", () => {
    expect(SUPPORTED_PROVIDERS).toBe(INFERENCE_PROVIDERS);
    expect([...SUPPORTED_PROVIDERS]).toEqual([
      "black-forest-labs",
      "cerebras",
      "cohere",
      "fal-ai",
      "featherless-ai",
      "fireworks-ai",
      "groq",
      "hf-inference",
      "hyperbolic",
      "nebius",
      "novita",
      "nscale",
      "openai",
      "ovhcloud",
      "replicate",
      "sambanova",
      "together",
    ]);
    expect(PROVIDERS_OR_POLICIES).toContain(AUTO_POLICY);
    expect(Object.keys(PROVIDER_TASKS).sort()).toEqual([...INFERENCE_PROVIDERS].sort());
  });
});

describe("PROVIDER_TASKS matches the library's provider helpers", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // Every pipeline tag 3.13.1 has a snippet generator for, plus the chat case. (Its generator for
  // "text2text-generation" is unreachable: @huggingface/tasks 0.19.90 folded that tag into
  // text-generation, see model-data.ts.)
  const probes: Array<{ task: string; pipeline: string; tags: string[] }> = [
    ...[
      "audio-classification",
      "audio-to-audio",
      "automatic-speech-recognition",
      "document-question-answering",
      "feature-extraction",
      "fill-mask",
      "image-classification",
      "image-segmentation",
      "image-to-image",
      "image-to-text",
      "object-detection",
      "question-answering",
      "sentence-similarity",
      "summarization",
      "tabular-classification",
      "tabular-regression",
      "table-question-answering",
      "text-classification",
      "text-generation",
      "text-to-audio",
      "text-to-image",
      "text-to-speech",
      "text-to-video",
      "token-classification",
      "translation",
      "zero-shot-classification",
      "zero-shot-image-classification",
    ].map((task) => ({ task, pipeline: task, tags: [] })),
    { task: "conversational", pipeline: "text-generation", tags: ["conversational"] },
  ];

  function libraryHasHelper(provider: InferenceProvider, pipeline: string, tags: string[]): boolean {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const pipelineTag = isPipelineType(pipeline) ? pipeline : undefined;
    const model: ModelData = { id: "org/model", pipeline_tag: pipelineTag, tags, inference: "" };
    const task: WidgetType = tags.includes("conversational") ? "conversational" : (model.pipeline_tag ?? "text-generation");
    const mapping = { hfModelId: "org/model", providerId: "org/model", task, status: "live" as const };
    try {
      snippets.getInferenceSnippets(model, provider === "openai" ? "sk-probe" : "hf_***", provider, mapping);
    } catch {
      // A throw comes after the helper lookup (e.g. a request-building check), so the helper exists.
    }
    const missing = errors.mock.calls.some((call) => String(call[0]).startsWith("Failed to get provider helper"));
    errors.mockRestore();
    return !missing;
  }

  for (const provider of INFERENCE_PROVIDERS) {
    it(provider, () => {
      for (const probe of probes) {
        expect(providerServesTask(provider, probe.task), `${provider} / ${probe.task}`).toBe(
          libraryHasHelper(provider, probe.pipeline, probe.tags),
        );
      }
    });
  }
});

describe("supportedProvidersFor", () => {
  it("lists auto first, then mapped providers the library supports, dropping newer or retired ones", () => {
    const flux = fixtureById(inference, "black-forest-labs/FLUX.1-dev");
    expect(flux.inferenceProviderMapping.map((m) => m.provider)).toContain("wavespeed");
    expect(supportedProvidersFor(flux)).toEqual([
      "auto",
      "black-forest-labs",
      "fal-ai",
      "hf-inference",
      "nebius",
      "replicate",
      "together",
    ]);
    expect(unsupportedProvidersFor(flux)).toEqual(["wavespeed"]);
  });

  it("names the providers mapped as staging, and marks them where a list shows them", () => {
    const mapping = (provider: string, status: ProviderMapping["status"]): ProviderMapping => ({ provider, providerId: provider, status, task: "conversational", adapter: null, adapterWeightsPath: null });
    const model = { inferenceProviderMapping: [mapping("together", "live"), mapping("hyperbolic", "staging"), mapping("nebius", null)] };
    const staging = stagingProvidersFor(model);
    expect(staging).toEqual(["hyperbolic"]);
    expect(["together", "hyperbolic", "nebius"].map((p) => providerLabel(p, staging.includes(p)))).toEqual(["together", "hyperbolic (staging)", "nebius"]);
  });

  it("lists every chat provider of Llama 3.3 70B", () => {
    expect(supportedProvidersFor(fixtureById(inference, "meta-llama/Llama-3.3-70B-Instruct"))).toEqual([
      "auto",
      "cerebras",
      "fireworks-ai",
      "groq",
      "hf-inference",
      "hyperbolic",
      "nebius",
      "novita",
      "sambanova",
      "together",
    ]);
  });

  it("drops mapped providers whose 3.13.1 helper lacks the task", () => {
    const whisper = fixtureById(inference, "openai/whisper-large-v3");
    expect(snippetTaskFor(whisper)).toBe("automatic-speech-recognition");
    expect(supportedProvidersFor(whisper)).toEqual(["auto", "fal-ai", "hf-inference"]);
    expect(unsupportedProvidersFor(whisper)).toEqual(["deepinfra", "replicate", "sambanova", "together"]);
  });

  it("omits auto when hf-inference has no helper for the task", () => {
    const cohere = fixtureById(inference, "CohereLabs/c4ai-command-r-plus");
    expect(supportedProvidersFor(cohere)).toEqual(["auto", "cohere"]);
    const video = { ...cohere, pipelineTag: "text-to-video", tags: [], inferenceProviderMapping: [
      { provider: "fal-ai", providerId: "fal-ai/wan", task: "text-to-video", status: null, adapter: null, adapterWeightsPath: null },
    ] };
    expect(supportedProvidersFor(video)).toEqual(["fal-ai"]);
  });

  it("is empty for a model no provider serves", () => {
    const qwen = fixtureById(library, "Qwen/Qwen2-0.5B-Instruct");
    expect(qwen.inferenceProviderMapping).toEqual([]);
    expect(supportedProvidersFor(qwen)).toEqual([]);
  });

  it("uses the chat task for conversational text-generation and image-text-to-text models", () => {
    expect(snippetTaskFor(fixtureById(inference, "meta-llama/Meta-Llama-3-8B-Instruct"))).toBe("conversational");
    expect(snippetTaskFor(fixtureById(inference, "meta-llama/Llama-3.2-11B-Vision-Instruct"))).toBe("conversational");
    expect(snippetTaskFor(fixtureById(inference, "google-bert/bert-base-uncased"))).toBe("fill-mask");
  });
});

import { describe, expect, it } from "vitest";
import { MODEL_TYPE_AUTO_CLASSES, PROCESSOR_MODEL_TYPES } from "#app/catalog/transformers-auto-classes.generated.ts";
import { deriveTransformersInfo, processorForModelType } from "#app/catalog/transformers-info.ts";
import { modelDetailRecords } from "#tests/support/fixtures.ts";

const lm = (tags: string[], pipelineTag: string | null, config: Record<string, unknown> | null = null) =>
  deriveTransformersInfo({ config, tags: ["transformers", ...tags], pipelineTag, libraryName: "transformers" });

describe("deriveTransformersInfo from a config", () => {
  it("resolves the architecture through transformers' tables, most specific class first", () => {
    expect(lm([], null, { architectures: ["LlamaForCausalLM"], model_type: "llama" })).toEqual({
      source: "config",
      info: { auto_model: "AutoModelForCausalLM", pipeline_tag: "text-generation", processor: "AutoTokenizer" },
    });
    // Listed under pre-training and causal LM: the Hub names the causal LM.
    expect(lm([], null, { architectures: ["GPT2LMHeadModel"], model_type: "gpt2" })?.info.auto_model).toBe("AutoModelForCausalLM");
    // Seq2seq wins over masked LM for BART.
    expect(lm([], null, { architectures: ["BartForConditionalGeneration"], model_type: "bart" })?.info.auto_model).toBe("AutoModelForSeq2SeqLM");
    expect(lm([], null, { architectures: ["WhisperForConditionalGeneration"], model_type: "whisper" })?.info).toEqual({
      auto_model: "AutoModelForSpeechSeq2Seq",
      pipeline_tag: "automatic-speech-recognition",
      processor: "AutoProcessor",
    });
    expect(lm([], null, { architectures: ["ViTForImageClassification"], model_type: "vit" })?.info.processor).toBe("AutoImageProcessor");
  });

  it("follows auto_map for custom code and names the custom class", () => {
    const config = {
      architectures: ["QWenLMHeadModel"],
      model_type: "qwen",
      auto_map: { AutoConfig: "configuration_qwen.QWenConfig", AutoModelForCausalLM: "modeling_qwen.QWenLMHeadModel" },
    };
    expect(lm(["custom_code"], "text-generation", config)?.info).toEqual({
      auto_model: "AutoModelForCausalLM",
      custom_class: "modeling_qwen.QWenLMHeadModel",
      pipeline_tag: "text-generation",
    });
  });

  it("reads unknown architectures by suffix, and names classes it cannot place as themselves", () => {
    expect(lm([], null, { architectures: ["VLMForCausalLM"], model_type: "vlm" })?.info).toEqual({
      auto_model: "AutoModelForCausalLM",
      pipeline_tag: "text-generation",
    });
    expect(lm([], null, { architectures: ["DonutModel"], model_type: "donut" })?.info).toEqual({ auto_model: "AutoModel" });
    expect(lm([], null, { architectures: ["BertForCL"], model_type: "bert" })?.info).toEqual({ auto_model: "BertForCL", processor: "AutoTokenizer" });
  });

  it("says only AutoModel when the config names no architecture, as the Hub does", () => {
    expect(lm(["llama"], "text-generation", { model_type: "llama" })).toEqual({ source: "config", info: { auto_model: "AutoModel" } });
  });
});

describe("deriveTransformersInfo without a config", () => {
  it("uses the model-type tag and picks the class that serves the pipeline tag", () => {
    expect(lm(["safetensors", "llama", "text-generation", "conversational"], "text-generation")).toEqual({
      source: "tags",
      info: { auto_model: "AutoModelForCausalLM", pipeline_tag: "text-generation", processor: "AutoTokenizer" },
    });
    expect(lm(["bert", "fill-mask"], "fill-mask")?.info.auto_model).toBe("AutoModelForMaskedLM");
    expect(lm(["bert", "token-classification"], "token-classification")?.info.auto_model).toBe("AutoModelForTokenClassification");
    expect(lm(["whisper", "automatic-speech-recognition"], "automatic-speech-recognition")?.info).toEqual({
      auto_model: "AutoModelForSpeechSeq2Seq",
      pipeline_tag: "automatic-speech-recognition",
      processor: "AutoProcessor",
    });
    expect(lm(["wav2vec2"], "automatic-speech-recognition")?.info.auto_model).toBe("AutoModelForCTC");
    expect(lm(["t5", "text2text-generation"], "translation")?.info.auto_model).toBe("AutoModelForSeq2SeqLM");
  });

  it("prefers the task tag the Hub derived over a card's differing pipeline_tag", () => {
    expect(lm(["xlm-roberta", "question-answering", "translation"], "translation")?.info.auto_model).toBe("AutoModelForQuestionAnswering");
  });

  it("falls back to the task's usual class when no tag is a known model type", () => {
    expect(lm(["RefinedWebModel", "custom_code"], "text-generation")).toEqual({
      source: "task",
      info: { auto_model: "AutoModelForCausalLM", pipeline_tag: "text-generation" },
    });
  });

  it("says a bare AutoModel, as the Hub does, when nothing names a class", () => {
    expect(lm(["gguf", "yi"], null)).toEqual({ source: "default", info: { auto_model: "AutoModel" } });
    // Prototype keys are never read as model types.
    expect(lm(["constructor", "__proto__", "toString"], null)).toEqual({ source: "default", info: { auto_model: "AutoModel" } });
  });

  it("derives nothing for models that are not transformers models", () => {
    expect(deriveTransformersInfo({ config: null, tags: ["diffusers", "llama"], pipelineTag: "text-to-image", libraryName: "diffusers" })).toBeNull();
  });
});

describe("the generated tables", () => {
  it("keep the types and processors the derivation relies on", () => {
    expect(MODEL_TYPE_AUTO_CLASSES.llama.AutoModelForCausalLM).toContain("LlamaForCausalLM");
    expect(PROCESSOR_MODEL_TYPES.AutoProcessor).toContain("whisper");
    expect(processorForModelType("vision-encoder-decoder")).toBe("AutoTokenizer");
    expect(processorForModelType("no-such-type")).toBeUndefined();
  });
});

describe("against the Hub's own transformersInfo in the fixture records", () => {
  const records = modelDetailRecords().filter((r) => r["transformersInfo"] && r["config"]);
  it.each(records.map((r) => [String(r["id"]), r] as const))("%s", (_id, r) => {
    const expected = r["transformersInfo"] as Record<string, unknown>;
    const derived = deriveTransformersInfo({
      config: r["config"] as Record<string, unknown>,
      tags: r["tags"] as string[],
      pipelineTag: (r["pipeline_tag"] as string | undefined) ?? null,
      libraryName: (r["library_name"] as string | undefined) ?? null,
    });
    expect({ auto_model: derived?.info.auto_model, processor: derived?.info.processor }).toEqual({
      auto_model: expected["auto_model"],
      processor: expected["processor"],
    });
  });
});

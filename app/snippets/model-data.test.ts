import { describe, expect, it } from "vitest";
import { isChatModel } from "#app/catalog/chat-model.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { fixtureById, loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import { isWidgetExample, maskTokenFor, pipelineTagFor, toModelData } from "#app/snippets/model-data.ts";

const fixtures = loadLibraryFixtures();
const catalogOf = (id: string): CatalogModel => fixtureById(fixtures.map((f) => f.catalog), id);
const hubOf = (id: string) => fixtureById(fixtures.map((f) => f.hub), id);

describe("toModelData", () => {
  it("gives back the Hub's own fields for every fixture", () => {
    for (const { catalog, hub } of fixtures) {
      const data = toModelData(catalog);
      expect(data.id).toBe(hub.id);
      // A chat model whose record lacks the tag (isChatModel) gains it, so the library writes chat code.
      const chat = isChatModel(catalog) && !hub.tags.includes("conversational");
      expect(data.tags).toEqual(chat ? [...hub.tags, "conversational"] : hub.tags);
      expect(data.pipeline_tag).toBe(hub.pipeline_tag);
      expect(data.library_name).toBe(hub.library_name);
      expect(data.config).toEqual(hub.config);
      expect(data.cardData).toEqual(hub.cardData);
      expect(data.transformersInfo).toEqual(hub.transformersInfo);
      expect(data.widgetData).toEqual(hub.widgetData);
      expect(data.gguf).toEqual(hub.gguf);
      if (hub.safetensors !== undefined) {
        expect(data.safetensors).toMatchObject({ parameters: hub.safetensors.parameters, total: hub.safetensors.total });
      }
    }
  });

  it("reproduces the Hub's mask_token for every fixture that has one", () => {
    const withMask = fixtures.filter((f) => f.hub.mask_token !== undefined);
    expect(withMask.map((f) => f.hub.id).sort()).toEqual([
      "Qdrant/Splade_PP_en_v1",
      "qilowoq/AbLang_light",
      "qnlbnsl/text_classifier_ai_voice_assistant",
      "quanthome/paraphrase-multilingual-MiniLM-L12-v2",
    ]);
    for (const { catalog, hub } of withMask) expect(toModelData(catalog).mask_token, hub.id).toBe(hub.mask_token);
  });

  it("takes the mask token from the model type over tokenizer_config, as the Hub does", () => {
    // AbLang's tokenizer_config says "[MASK]"; the Hub reports the roberta token.
    const config = catalogOf("qilowoq/AbLang_light").config;
    expect(config?.tokenizer_config).toMatchObject({ mask_token: "[MASK]" });
    expect(hubOf("qilowoq/AbLang_light").mask_token).toBe("<mask>");
    expect(maskTokenFor({ model_type: "deberta-v2" }, [])).toBe("[MASK]");
    expect(maskTokenFor({ model_type: "mpnet", tokenizer_config: { mask_token: "<mask>" } }, [])).toBe("<mask>");
    expect(
      maskTokenFor({ tokenizer_config: { mask_token: { __type: "AddedToken", content: "<special_mask>" } } }, []),
    ).toBe("<special_mask>");
    expect(maskTokenFor(undefined, ["transformers", "gpt2"])).toBeUndefined();
  });

  it("finds the mask token of a list-API row from its model-type tag", () => {
    const bert = catalogOf("google-bert/bert-base-uncased");
    expect(bert.config).toBeNull();
    expect(toModelData(bert).mask_token).toBe("[MASK]");
  });

  it("derives `sharded` from the index file when the Hub record predates the field", () => {
    const awq = toModelData(catalogOf("Qwen/Qwen2-72B-Instruct-AWQ"));
    expect(awq.safetensors?.sharded).toBe(true);
    const small = toModelData(catalogOf("Qwen/Qwen2-0.5B-Instruct"));
    expect(small.safetensors).toEqual({ parameters: { BF16: 494032768 }, total: 494032768, sharded: false });
  });

  it("keeps the GGUF block that drives the llama.cpp family of local apps", () => {
    expect(toModelData(catalogOf("Qwen/Qwen2-0.5B-Instruct-GGUF")).gguf).toMatchObject({
      total: 494032768,
      architecture: "qwen2",
      context_length: 32768,
    });
    const withoutTotal = { ...catalogOf("Qwen/Qwen2-0.5B-Instruct-GGUF"), gguf: { context_length: 4096 }, params: 7_000_000 };
    expect(toModelData(withoutTotal).gguf).toEqual({ context_length: 4096, total: 7_000_000 });
  });

  it("drops values of the wrong type instead of handing them to the snippet functions", () => {
    const base = catalogOf("Qwen/Qwen2-0.5B-Instruct");
    const broken: CatalogModel = {
      ...base,
      pipelineTag: "not-a-pipeline",
      config: { architectures: "Qwen2ForCausalLM", model_type: 7, quantization_config: { quant_method: ["awq"] } },
      transformersInfo: { pipeline_tag: "text-generation" },
      cardData: { base_model: 42, license: "apache-2.0" },
      safetensors: { total: "many" },
      gguf: { context_length: "long" },
      widgetData: [{ text: "ok" }, { nothing: true }, "bare string", null],
    };
    const data = toModelData(broken);
    expect(data.pipeline_tag).toBeUndefined();
    expect(data.config?.architectures).toBeUndefined();
    expect(data.config?.model_type).toBeUndefined();
    expect(data.config?.quantization_config?.quant_method).toBeUndefined();
    // The original chat template column still reaches the config.
    expect(data.config?.tokenizer_config?.chat_template).toBe(base.chatTemplate);
    expect(data.transformersInfo).toBeUndefined();
    expect(data.cardData).toEqual({ base_model: undefined, license: "apache-2.0" });
    expect(data.safetensors).toBeUndefined();
    expect(data.gguf).toEqual({ context_length: undefined, total: base.params });
    expect(data.widgetData).toEqual([{ text: "ok" }]);
  });

  it("maps the retired text2text-generation pipeline onto text-generation", () => {
    expect(pipelineTagFor("text2text-generation")).toBe("text-generation");
    expect(pipelineTagFor("fill-mask")).toBe("fill-mask");
    expect(pipelineTagFor("made-up")).toBeUndefined();
    expect(pipelineTagFor(null)).toBeUndefined();
  });
});

describe("isWidgetExample", () => {
  it("accepts each input shape and rejects the rest", () => {
    for (const example of [
      { text: "hi" },
      { messages: [{ role: "user", content: "hi" }] },
      { src: "https://example.com/a.png" },
      { structured_data: { a: [1] } },
      { table: { a: ["x"] } },
      { source_sentence: "a", sentences: ["b"] },
    ]) {
      expect(isWidgetExample(example), JSON.stringify(example)).toBe(true);
    }
    for (const example of [null, "text", [], { text: 1 }, { source_sentence: "a" }]) {
      expect(isWidgetExample(example), JSON.stringify(example)).toBe(false);
    }
  });
});

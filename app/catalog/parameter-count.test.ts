import { describe, expect, it } from "vitest";
import { storesPackedQuantisedWeights } from "#app/catalog/parameter-count.ts";

// Qwen/Qwen2-72B-Instruct-AWQ and Qwen/Qwen2-0.5B-Instruct as the bundled catalogue holds them.
const awq = {
  safetensors: { parameters: { F16: 3044057088, I32: 8876851200 }, total: 11920908288 },
  config: { model_type: "qwen2", quantization_config: { bits: 4, quant_method: "awq" } },
  tags: ["transformers", "safetensors", "qwen2", "text-generation", "4-bit", "awq"],
};
const plain = { safetensors: { parameters: { BF16: 494032768 }, total: 494032768 }, config: { model_type: "qwen2" }, tags: ["transformers", "safetensors"] };

describe("packed quantised weights", () => {
  it("are recognised by integer storage together with a quantisation config or tag", () => {
    expect(storesPackedQuantisedWeights(awq)).toBe(true);
    expect(storesPackedQuantisedWeights({ ...awq, config: null })).toBe(true);
    expect(storesPackedQuantisedWeights({ ...awq, tags: [] })).toBe(true);
    // bitsandbytes 4-bit packs into U8.
    expect(storesPackedQuantisedWeights({ safetensors: { parameters: { F16: 1, U8: 2 }, total: 3 }, config: null, tags: ["bitsandbytes", "4-bit"] })).toBe(true);
  });

  it("leave an unquantised model's total standing, integer buffers included", () => {
    expect(storesPackedQuantisedWeights(plain)).toBe(false);
    expect(storesPackedQuantisedWeights({ ...awq, config: null, tags: ["transformers"] })).toBe(false);
    expect(storesPackedQuantisedWeights({ safetensors: { parameters: { F32: 10, I64: 512 }, total: 522 }, config: null, tags: [] })).toBe(false);
    expect(storesPackedQuantisedWeights({ safetensors: null, config: awq.config, tags: awq.tags })).toBe(false);
  });
});

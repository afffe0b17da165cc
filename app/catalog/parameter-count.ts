/**
 * When a model's safetensors element count may be stated as its parameter count. The Hub's
 * `safetensors.total` counts stored tensor elements by dtype. AWQ, GPTQ and bitsandbytes 4-bit
 * checkpoints pack several weights into each integer element (eight 4-bit weights per I32), so
 * Qwen/Qwen2-72B-Instruct-AWQ stores 11.9B elements for a 72B model: that total is not a
 * parameter count, and no other field of the catalogue holds the real one.
 */

/** Tags the Hub and model authors give quantised checkpoints. */
const QUANTISATION_TAGS: ReadonlySet<string> = new Set(["awq", "gptq", "4-bit", "8-bit", "bitsandbytes", "exl2", "aqlm", "marlin"]);

/** An integer storage dtype as the Hub names them (I8, I32, U8, …): where packed weights live. */
const INTEGER_DTYPE = /^[IU]\d+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface PackedWeightsInput {
  safetensors: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
  tags: readonly string[];
}

/**
 * True when the safetensors counts include integer-typed elements and the model says it is
 * quantised (a `quantization_config`, or a quantisation tag): its total counts packed storage.
 * Integer tensors without such a sign (position ids, token-type buffers) are few and counted by the
 * Hub as parameters, so they leave the total standing.
 */
export function storesPackedQuantisedWeights({ safetensors, config, tags }: PackedWeightsInput): boolean {
  const counts = safetensors?.["parameters"];
  if (!isRecord(counts)) return false;
  const packed = Object.entries(counts).some(([dtype, n]) => INTEGER_DTYPE.test(dtype) && typeof n === "number" && n > 0);
  if (!packed) return false;
  return isRecord(config?.["quantization_config"]) || tags.some((t) => QUANTISATION_TAGS.has(t));
}

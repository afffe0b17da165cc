/**
 * GGUF repos: how the catalogue recognises one, what its imported header holds, and its files with
 * their quantisations. Quant labels and their order come from @huggingface/tasks, the same code the
 * Hub's GGUF panel and local apps use, so a file is labelled here exactly as LOCAL_APPS reads it.
 */
import { GGMLFileQuantizationType, GGUF_QUANT_ORDER, parseGGUFQuantLabel } from "@huggingface/tasks";
import { z } from "zod";
import type { CatalogModel } from "#app/catalog/model-record.ts";

/** The evidence a repo is GGUF, strongest last: a header is only there when a file was parsed. */
export type GgufSignal = "library" | "tags" | "files" | "header";

type GgufModel = Pick<CatalogModel, "libraryName" | "tags" | "siblings" | "gguf">;

export function isGgufFilename(name: string): boolean {
  return name.toLowerCase().endsWith(".gguf");
}

export function ggufSignals(model: GgufModel): GgufSignal[] {
  const out: GgufSignal[] = [];
  if (model.libraryName === "gguf") out.push("library");
  if (model.tags.includes("gguf")) out.push("tags");
  if (model.siblings.some((s) => isGgufFilename(s.rfilename))) out.push("files");
  if (ggufHeaderOf(model) !== null) out.push("header");
  return out;
}

export function isGgufRepo(model: GgufModel): boolean {
  return ggufSignals(model).length > 0;
}

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** The Hub's `gguf` field; each value is kept only when it has the Hub's type. */
const headerSchema = z.looseObject({
  total: optional(z.number().nonnegative()),
  architecture: optional(z.string()),
  context_length: optional(z.number().positive()),
  chat_template: optional(z.string()),
  bos_token: optional(z.string().nullable()),
  eos_token: optional(z.string().nullable()),
});

export interface GgufHeader {
  total?: number;
  architecture?: string;
  context_length?: number;
  chat_template?: string;
  bos_token?: string | null;
  eos_token?: string | null;
}

const HEADER_KEYS = ["total", "architecture", "context_length", "chat_template", "bos_token", "eos_token"] as const;

/**
 * What the stored header holds, in the Hub's field names and nothing else (the API serves this
 * object as `gguf`). Null when no header was imported or none of its fields is usable.
 */
export function ggufHeaderOf(model: Pick<CatalogModel, "gguf">): GgufHeader | null {
  if (model.gguf === null) return null;
  const parsed = headerSchema.safeParse(model.gguf);
  if (!parsed.success) return null;
  const out: GgufHeader = {};
  for (const key of HEADER_KEYS) {
    const value = parsed.data[key];
    if (value !== undefined) Object.assign(out, { [key]: value });
  }
  return Object.keys(out).length > 0 ? out : null;
}

export interface GgufFile {
  rfilename: string;
  /** The quant label in the file name (Q4_K_M, IQ2_XS, F16, …), as LOCAL_APPS parses it; null when none. */
  quant: string | null;
  /** Bytes, when the catalogue recorded them (every part's, for a split file). */
  size: number | null;
  /** 1, or how many files (`-00001-of-00003.gguf`) the model is split into; `rfilename` is the first, which llama.cpp loads. */
  parts: number;
}

const QUANT_RANK: ReadonlyMap<string, number> = new Map(
  GGUF_QUANT_ORDER.map((q, i) => [GGMLFileQuantizationType[q], i] as const),
);

/** A label's place from biggest to smallest, using only its scheme ("UD-Q4_K_XL" ranks as Q4_K_XL). */
function quantRank(label: string | null): number {
  if (label === null) return Number.MAX_SAFE_INTEGER;
  const bare = label.replace(/^UD-/, "");
  return QUANT_RANK.get(bare) ?? QUANT_RANK.get(bare.replace(/_[A-Z]+$/, "")) ?? Number.MAX_SAFE_INTEGER - 1;
}

// Quant schemes @huggingface/tasks' label pattern leaves out (it knows file types such as Q3_K_M,
// not the bare scheme Q3_K that some repos name their files by).
const BARE_QUANT = /(?:^|[-._/])(I?Q[1-8]_K|I?Q[1-8]_[01]|I?Q[1-8])(?=[-._]|$)/i;
// Nor "fp16"/"fp32", which Qwen's own GGUF repos name their unquantised files by: GGML's F16, F32.
const FLOAT_NAME = /(?:^|[-._/])fp(16|32)(?=[-._]|$)/i;

export function quantLabelOf(filename: string): string | null {
  const stem = filename.replace(/\.gguf$/i, "");
  const float = FLOAT_NAME.exec(stem)?.[1];
  return parseGGUFQuantLabel(filename) ?? BARE_QUANT.exec(stem)?.[1]?.toUpperCase() ?? (float === undefined ? null : `F${float}`);
}

const SPLIT_PART = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;

/**
 * The repo's .gguf files with their quantisations, biggest first as on the Hub; names break ties.
 * A model split into parts (`…-00001-of-00002.gguf`) is one entry: its first part, with the
 * parts' total size.
 */
export function ggufFilesWithQuant(model: Pick<CatalogModel, "siblings">): GgufFile[] {
  const files = new Map<string, GgufFile>();
  for (const s of model.siblings) {
    if (!isGgufFilename(s.rfilename)) continue;
    const split = SPLIT_PART.exec(s.rfilename);
    const key = split ? `${split[1]}\u0000${split[3]}` : s.rfilename;
    const seen = files.get(key);
    if (!seen) {
      files.set(key, { rfilename: s.rfilename, quant: quantLabelOf(s.rfilename), size: s.size, parts: split ? Number(split[3]) : 1 });
      continue;
    }
    seen.size = seen.size === null || s.size === null ? null : seen.size + s.size;
    if (s.rfilename < seen.rfilename) seen.rfilename = s.rfilename;
  }
  return [...files.values()].sort((a, b) => quantRank(a.quant) - quantRank(b.quant) || (a.rfilename < b.rfilename ? -1 : a.rfilename > b.rfilename ? 1 : 0));
}

/**
 * The file "Use this model" fills into the local-app commands until the visitor picks another:
 * the Q4_K_M file when the repo has one (the usual middle ground between size and quality), else
 * the first listed. Null when no .gguf file is known, and only then do the commands keep the
 * library's {{QUANT_TAG}} and {{GGUF_FILE}} placeholders.
 */
export function defaultGgufFile(files: readonly GgufFile[]): GgufFile | null {
  return files.find((f) => f.quant === "Q4_K_M") ?? files[0] ?? null;
}

/** Weight files transformers' from_pretrained loads without gguf_file=: safetensors, PyTorch, TensorFlow, Flax. */
const TRANSFORMERS_WEIGHTS = /(?:\.safetensors|(?:^|\/)pytorch_model[^/]*\.bin|(?:^|\/)tf_model[^/]*\.h5|(?:^|\/)flax_model[^/]*\.msgpack)$/i;

/** The format tags the Hub adds for those files; a list row without a file list still carries them. */
const WEIGHT_FORMAT_TAGS: ReadonlySet<string> = new Set(["safetensors", "pytorch", "tf", "jax"]);

/**
 * A GGUF repo with no other weights transformers can load, so from_pretrained needs gguf_file= to
 * load it at all. Read from the file list when the catalogue has one (a .gguf file and none of the
 * others), else from the Hub's format tags (887 of the bundled catalogue's 947 GGUF repos that name
 * transformers have neither a file list nor a safetensors, pytorch, tf or jax tag).
 */
export function holdsOnlyGgufWeights(model: GgufModel): boolean {
  if (!isGgufRepo(model)) return false;
  if (model.siblings.length > 0) {
    return model.siblings.some((s) => isGgufFilename(s.rfilename)) && !model.siblings.some((s) => TRANSFORMERS_WEIGHTS.test(s.rfilename));
  }
  return !model.tags.some((t) => WEIGHT_FORMAT_TAGS.has(t));
}

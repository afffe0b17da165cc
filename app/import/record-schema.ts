import { z } from "zod";
import { modelIdSchema as modelId } from "#app/catalog/model-id.ts";

export const MAX_CARD_BYTES = 2 * 1024 * 1024;
// The real maximum in the 2024 dump is 4,046 (a language-identification model tagged per language).
export const MAX_TAGS = 10_000;
export const MAX_SIBLINGS = 50_000;

const isoDate = z
  .string()
  .max(64)
  .refine((s) => !Number.isNaN(Date.parse(s)), "is not a date");

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

const providerEntry = z.object({
  providerId: z.string().min(1).max(300),
  task: z.string().min(1).max(100),
  status: z.enum(["live", "staging", "error"]).nullable().optional(),
  adapter: z.string().max(100).nullable().optional(),
  adapterWeightsPath: z.string().max(500).nullable().optional(),
});

const providerMapping = z.union([
  z.record(z.string().min(1).max(100), providerEntry),
  z.array(providerEntry.extend({ provider: z.string().min(1).max(100) })).max(200),
]);

const sibling = z.object({
  rfilename: z.string().min(1).max(1000),
  size: count.nullable().optional(),
  lfs: z.object({ size: count.optional() }).partial().nullable().optional(),
});

const jsonObject = z.record(z.string(), z.unknown());

/**
 * One imported record: the Hub list shape, the full `/api/models/{id}` shape, or a partial record
 * (for example a provider mapping). Unknown keys are ignored; known keys are type-checked.
 */
export const importRecordSchema = z.looseObject({
  id: modelId.optional(),
  modelId: modelId.optional(),
  author: z.string().max(100).nullable().optional(),
  pipeline_tag: z.string().max(100).nullable().optional(),
  library_name: z.string().max(100).nullable().optional(),
  tags: z.array(z.string().max(300)).max(MAX_TAGS, `more than ${MAX_TAGS} tags`).optional(),
  downloads: count.optional(),
  likes: z.number().int().min(0).optional(),
  trendingScore: z.number().optional(),
  createdAt: isoDate.nullable().optional(),
  lastModified: isoDate.nullable().optional(),
  sha: z.string().max(100).nullable().optional(),
  gated: z.union([z.boolean(), z.enum(["auto", "manual"])]).optional(),
  siblings: z.array(sibling).max(MAX_SIBLINGS, `more than ${MAX_SIBLINGS} files`).optional(),
  cardData: jsonObject.nullable().optional(),
  config: jsonObject.nullable().optional(),
  transformersInfo: jsonObject.nullable().optional(),
  widgetData: z.array(z.unknown()).nullable().optional(),
  safetensors: z
    .looseObject({ total: z.number().min(0).optional(), parameters: z.record(z.string(), z.number()).optional() })
    .nullable()
    .optional(),
  gguf: jsonObject.nullable().optional(),
  // The Hub sends a list; a few real records carry a single object, which means a list of one.
  "model-index": z.union([z.array(z.unknown()), jsonObject]).nullable().optional(),
  spaces: z.array(z.string().max(200)).max(10_000).optional(),
  readme: z
    .string()
    .refine((s) => Buffer.byteLength(s) <= MAX_CARD_BYTES, `readme is larger than ${MAX_CARD_BYTES / 1024 / 1024} MB`)
    .optional(),
  inferenceProviderMapping: providerMapping.optional(),
});

export type ImportRecord = z.infer<typeof importRecordSchema>;

/** Turns a zod failure into one short, human-readable reason for the reject list. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      const where = i.path.length ? i.path.join(".") : "record";
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

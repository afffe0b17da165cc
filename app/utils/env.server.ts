import { z } from "zod";

/** The Hub's asset host for the task guides' demo media (also read raw by the widgets' examples). */
export const DEFAULT_TASK_ASSET_BASE = "https://huggingface.co/datasets/huggingfacejs/tasks/resolve/main";

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.string().optional(),
  MODELYARD_TASK_ASSET_BASE: z.string().url().default(DEFAULT_TASK_ASSET_BASE),
  MODELYARD_PROPOSE_URL_TEMPLATE: z
    .string()
    .default("https://github.com/huggingface/huggingface.js/blob/main/packages/tasks/src/tasks/{task}/{file}"),
  MODELYARD_HUB_URL: z.string().url().default("https://huggingface.co"),
  // Live details (ADR 0016): off unless asked for, because the catalogue works offline first.
  MODELYARD_LIVE: z
    .enum(["", "0", "1", "false", "true"], { error: "MODELYARD_LIVE must be 1 (on) or 0 (off)" })
    .default("")
    .transform((v) => v === "1" || v === "true"),
  MODELYARD_LIVE_DEADLINE_MS: z.coerce.number().int().min(100).max(30_000).default(3_000),
  // The listing's in-memory index (ADR 0027): on unless a small machine needs its ~50 MB back.
  MODELYARD_LISTING_INDEX: z
    .enum(["", "0", "1", "false", "true"], { error: "MODELYARD_LISTING_INDEX must be 1 (on) or 0 (off)" })
    .default("")
    .transform((v) => v !== "0" && v !== "false"),
  // The same egress override the inference gateway honours (app/inference/gateway-config.server.ts).
  MODELYARD_UPSTREAM_OVERRIDE: z
    .url({ protocol: /^https?$/ })
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Validated process environment; a bad value stops start-up with a message naming the variable. */
export function getEnv(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

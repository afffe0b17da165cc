/** The gateway's settings, from the environment (validated; a bad value names its variable). */
import { z } from "zod";
import { type CostCaps, DEFAULT_COST_CAPS } from "#app/inference/cost-caps.server.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";

const intFrom = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

const configSchema = z.object({
  MODELYARD_UPSTREAM_OVERRIDE: z.url({ protocol: /^https?$/ }).optional(),
  MODELYARD_INFERENCE_DEADLINE_MS: intFrom(60_000, 100, 3_600_000),
  MODELYARD_INFERENCE_MAX_RETRIES: intFrom(4, 0, 20),
  MODELYARD_INFERENCE_RETRY_BASE_MS: intFrom(1_000, 1, 60_000),
  MODELYARD_INFERENCE_MAX_BODY_BYTES: intFrom(8 * 1024 * 1024, 1_024, 256 * 1024 * 1024),
  MODELYARD_CAP_MAX_TOKENS: intFrom(DEFAULT_COST_CAPS.maxTokens, 1, 10_000_000),
  MODELYARD_CAP_CHOICES: intFrom(DEFAULT_COST_CAPS.choices, 1, 1_000),
  MODELYARD_CAP_IMAGE_SIDE: intFrom(DEFAULT_COST_CAPS.imageSide, 64, 100_000),
  MODELYARD_CAP_STEPS: intFrom(DEFAULT_COST_CAPS.steps, 1, 10_000),
  MODELYARD_CAP_FRAMES: intFrom(DEFAULT_COST_CAPS.frames, 1, 100_000),
  MODELYARD_CAP_SPEECH_CHARS: intFrom(DEFAULT_COST_CAPS.speechChars, 1, 10_000_000),
});

export interface GatewayConfig {
  override: string | null;
  deadlineMs: number;
  maxRetries: number;
  retryBaseMs: number;
  maxBodyBytes: number;
  caps: CostCaps;
}

export function readGatewayConfig(env: EnvLike): GatewayConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([k, v]) => k in configSchema.shape && v !== undefined && v !== ""));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid inference gateway settings: ${lines.join("; ")}`);
  }
  const c = parsed.data;
  return {
    override: c.MODELYARD_UPSTREAM_OVERRIDE ?? null,
    deadlineMs: c.MODELYARD_INFERENCE_DEADLINE_MS,
    maxRetries: c.MODELYARD_INFERENCE_MAX_RETRIES,
    retryBaseMs: c.MODELYARD_INFERENCE_RETRY_BASE_MS,
    maxBodyBytes: c.MODELYARD_INFERENCE_MAX_BODY_BYTES,
    caps: {
      maxTokens: c.MODELYARD_CAP_MAX_TOKENS,
      choices: c.MODELYARD_CAP_CHOICES,
      imageSide: c.MODELYARD_CAP_IMAGE_SIDE,
      steps: c.MODELYARD_CAP_STEPS,
      frames: c.MODELYARD_CAP_FRAMES,
      speechChars: c.MODELYARD_CAP_SPEECH_CHARS,
    },
  };
}

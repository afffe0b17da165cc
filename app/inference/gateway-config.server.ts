/** The gateway's settings, from the environment (declared in app/utils/env.server.ts; a bad value names its variable). */
import type { CostCaps } from "#app/inference/cost-caps.server.ts";
import { type EnvLike, readConfig } from "#app/utils/env.server.ts";

const GATEWAY_VARS = [
  "MODELYARD_UPSTREAM_OVERRIDE",
  "MODELYARD_INFERENCE_DEADLINE_MS",
  "MODELYARD_INFERENCE_STREAM_MAX_MS",
  "MODELYARD_INFERENCE_MAX_RETRIES",
  "MODELYARD_INFERENCE_RETRY_BASE_MS",
  "MODELYARD_INFERENCE_MAX_BODY_BYTES",
  "MODELYARD_INFERENCE_MAX_ANSWER_BYTES",
  "MODELYARD_CAP_MAX_TOKENS",
  "MODELYARD_CAP_CHOICES",
  "MODELYARD_CAP_IMAGE_SIDE",
  "MODELYARD_CAP_STEPS",
  "MODELYARD_CAP_FRAMES",
  "MODELYARD_CAP_SPEECH_CHARS",
  "MODELYARD_V1_ROUTING",
  "MODELYARD_V1_FAILOVER",
] as const;

export interface GatewayConfig {
  override: string | null;
  /** A whole answer; for a stream, its first chunk and then each gap between chunks. */
  deadlineMs: number;
  /** A stream as a whole: a long answer at a provider's pace outlasts the deadline (ADR 0006). */
  streamMaxMs: number;
  maxRetries: number;
  retryBaseMs: number;
  maxBodyBytes: number;
  /** The most of one provider answer the gateway reads (hub-fetch.server.ts). */
  maxAnswerBytes: number;
  caps: CostCaps;
  /** The /v1 routing policy and failover bound (ADR 0040). */
  v1Routing: "fastest" | "listed";
  v1Failover: number;
}

export function readGatewayConfig(env: EnvLike): GatewayConfig {
  const c = readConfig(env, GATEWAY_VARS, "inference gateway settings");
  return {
    override: c.MODELYARD_UPSTREAM_OVERRIDE ?? null,
    deadlineMs: c.MODELYARD_INFERENCE_DEADLINE_MS,
    streamMaxMs: c.MODELYARD_INFERENCE_STREAM_MAX_MS,
    maxRetries: c.MODELYARD_INFERENCE_MAX_RETRIES,
    retryBaseMs: c.MODELYARD_INFERENCE_RETRY_BASE_MS,
    maxBodyBytes: c.MODELYARD_INFERENCE_MAX_BODY_BYTES,
    maxAnswerBytes: c.MODELYARD_INFERENCE_MAX_ANSWER_BYTES,
    caps: {
      maxTokens: c.MODELYARD_CAP_MAX_TOKENS,
      choices: c.MODELYARD_CAP_CHOICES,
      imageSide: c.MODELYARD_CAP_IMAGE_SIDE,
      steps: c.MODELYARD_CAP_STEPS,
      frames: c.MODELYARD_CAP_FRAMES,
      speechChars: c.MODELYARD_CAP_SPEECH_CHARS,
    },
    v1Routing: c.MODELYARD_V1_ROUTING,
    v1Failover: c.MODELYARD_V1_FAILOVER,
  };
}

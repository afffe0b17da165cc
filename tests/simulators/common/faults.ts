// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
import { z } from "zod";

// Faults scripted per request, in process or over HTTP (the control API validates against these schemas).

const timesSchema = z.union([z.number().int().positive(), z.literal("forever")]);

export const errorStyleSchema = z.enum(["hf-inference", "openai", "message", "replicate", "fal", "text", "html", "empty-json"]);
export type ErrorStyle = z.infer<typeof errorStyleSchema>;

export const faultMatchSchema = z.strictObject({
  /** Substring of the upstream host, e.g. "router.huggingface.co" or "api.together.xyz". */
  host: z.string().min(1).optional(),
  /** Substring of the upstream path and query, e.g. "/v1/chat/completions". */
  path: z.string().min(1).optional(),
  /** Exact model id as the upstream sees it (provider model id, or the HF id for hf-inference). */
  model: z.string().min(1).optional(),
  /** Provider name as in @huggingface/inference, e.g. "together", "hf-inference", "fal-ai". */
  provider: z.string().min(1).optional(),
  method: z.string().min(1).optional(),
});
export type FaultMatch = z.infer<typeof faultMatchSchema>;

export const faultSchema = z.discriminatedUnion("kind", [
  // An HTTP error with a JSON body in the provider's own style (or the style asked for).
  z.strictObject({
    kind: z.literal("error"),
    status: z.number().int().min(400).max(599),
    message: z.string().optional(),
    style: errorStyleSchema.optional(),
    /** A Retry-After header, in seconds, as rate limiters send with a 429. */
    retryAfterSec: z.number().int().nonnegative().optional(),
    times: timesSchema.optional(),
  }),
  // hf-inference's 503 "model is loading". times: N gives a burst then success; "forever" never ends.
  z.strictObject({
    kind: z.literal("loading"),
    estimatedTime: z.number().nonnegative().optional(),
    times: timesSchema.optional(),
  }),
  // 200 with a non-SSE content type where a stream was asked for.
  z.strictObject({
    kind: z.literal("wrong-content-type"),
    contentType: z.string().min(1).optional(),
    times: timesSchema.optional(),
  }),
  // An SSE `data: {"error": ...}` event after some content chunks, then the stream ends.
  z.strictObject({
    kind: z.literal("mid-stream-error"),
    afterChunks: z.number().int().nonnegative().optional(),
    message: z.string().optional(),
    times: timesSchema.optional(),
  }),
  // Delay before the first byte and between stream chunks.
  z.strictObject({
    kind: z.literal("slow"),
    tokenDelayMs: z.number().int().nonnegative().max(60_000),
    firstByteDelayMs: z.number().int().nonnegative().max(60_000).optional(),
    times: timesSchema.optional(),
  }),
  // Destroy the socket: before any response byte, or after some stream chunks / part of a body.
  z.strictObject({
    kind: z.literal("drop"),
    when: z.enum(["before-headers", "mid-body"]).optional(),
    afterChunks: z.number().int().nonnegative().optional(),
    times: timesSchema.optional(),
  }),
  // 200 application/json whose body is cut short, so it is not JSON.
  z.strictObject({ kind: z.literal("malformed-json"), times: timesSchema.optional() }),
  // 200 with valid JSON in a shape the task never answers with (`body`, or an object no task has).
  z.strictObject({ kind: z.literal("wrong-shape"), body: z.json().optional(), times: timesSchema.optional() }),
  // Replicate answers `Prefer: wait` with a prediction that is still "processing" (the wait timed out).
  z.strictObject({ kind: z.literal("replicate-pending"), times: timesSchema.optional() }),
]);
export type Fault = z.infer<typeof faultSchema>;

export const scriptFaultBodySchema = z.strictObject({ match: faultMatchSchema, fault: faultSchema });

export interface ActiveFault {
  match: FaultMatch;
  fault: Fault;
  remaining: number | "forever";
}

export function defaultFaultMessage(status: number): string {
  if (status === 401) return "Invalid credentials (simulated fault)";
  if (status === 404) return "Not found (simulated fault)";
  if (status === 429) return "Rate limit reached (simulated fault)";
  if (status >= 500) return "Internal server error (simulated fault)";
  return "Bad request (simulated fault)";
}

/**
 * How long a `slow` fault holds back a whole answer (anything but a stream): its first-byte delay,
 * else its token delay. Streams use firstByteDelayMs before the first chunk, tokenDelayMs between.
 */
export function answerDelayMs(fault: Fault | null): number {
  return fault?.kind === "slow" ? (fault.firstByteDelayMs ?? fault.tokenDelayMs) : 0;
}

/** Whether a drop fault cuts the socket before any byte or part-way through the body. */
export function dropWhen(fault: Fault | null): "before-headers" | "mid-body" | null {
  if (fault?.kind !== "drop") return null;
  return fault.when ?? (fault.afterChunks === undefined ? "before-headers" : "mid-body");
}

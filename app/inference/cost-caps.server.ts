/**
 * Bounds on what one call may cost, enforced on the server whatever the page's sliders allow
 * (ADR 0038). A parameter is bounded by its name wherever it sits in `parameters` (chat's
 * `max_tokens`, a summariser's `generate_parameters.max_new_tokens`), so a new task's spec needs
 * no new entry. Past a bound the answer is a 400 naming the field.
 */
import { GatewayError } from "#app/inference/errors.server.ts";

export interface CostCaps {
  /** Generated tokens: max_tokens, max_new_tokens, max_completion_tokens, max_length. */
  maxTokens: number;
  /** Answers per call: n, num_return_sequences, best_of, num_images_per_prompt. */
  choices: number;
  /** Either side of a generated image or video, in pixels. */
  imageSide: number;
  /** Diffusion steps. */
  steps: number;
  /** Frames of a generated video. */
  frames: number;
  /** Characters of text turned into speech or audio (the audio's length follows it). */
  speechChars: number;
}

const CAP_OF: Record<string, { cap: keyof CostCaps; what: string }> = {
  max_tokens: { cap: "maxTokens", what: "tokens" },
  max_new_tokens: { cap: "maxTokens", what: "tokens" },
  max_completion_tokens: { cap: "maxTokens", what: "tokens" },
  max_length: { cap: "maxTokens", what: "tokens" },
  n: { cap: "choices", what: "answers" },
  num_return_sequences: { cap: "choices", what: "answers" },
  best_of: { cap: "choices", what: "answers" },
  num_images_per_prompt: { cap: "choices", what: "images" },
  width: { cap: "imageSide", what: "pixels" },
  height: { cap: "imageSide", what: "pixels" },
  num_inference_steps: { cap: "steps", what: "steps" },
  num_frames: { cap: "frames", what: "frames" },
};

const SPEECH_TASKS = new Set(["text-to-speech", "text-to-audio"]);

/** The first parameter past its bound, walking at most a few levels deep. */
function findOverCap(value: unknown, path: string, caps: CostCaps, depth: number): GatewayError | null {
  if (depth > 4 || typeof value !== "object" || value === null || Array.isArray(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    const field = `${path}.${key}`;
    const rule = CAP_OF[key];
    if (rule && typeof v === "number" && v > caps[rule.cap]) {
      return new GatewayError({
        status: 400,
        code: "invalid_request",
        message: `${field} is ${v}, above this server's bound of ${caps[rule.cap]} ${rule.what} per call.`,
        hint: `Ask for at most ${caps[rule.cap]} ${rule.what}; an admin can raise the bound.`,
        field,
      });
    }
    const nested = findOverCap(v, field, caps, depth + 1);
    if (nested) return nested;
  }
  return null;
}

/**
 * The largest value a parameter bounded by `cap` is given anywhere in `parameters` (by the names and
 * to the depth checkCostCaps walks), or undefined when none is set: what a call may cost at most.
 */
export function largestBounded(parameters: unknown, cap: keyof CostCaps, depth = 0): number | undefined {
  if (depth > 4 || typeof parameters !== "object" || parameters === null || Array.isArray(parameters)) return undefined;
  let largest: number | undefined;
  for (const [key, v] of Object.entries(parameters)) {
    const own = CAP_OF[key]?.cap === cap && typeof v === "number" && Number.isFinite(v) ? v : undefined;
    for (const found of [own, largestBounded(v, cap, depth + 1)]) if (found !== undefined && (largest === undefined || found > largest)) largest = found;
  }
  return largest;
}

export function checkCostCaps(task: string | null, parameters: unknown, inputs: unknown, caps: CostCaps): void {
  const over = findOverCap(parameters, "parameters", caps, 0);
  if (over) throw over;
  if (task !== null && SPEECH_TASKS.has(task) && typeof inputs === "string" && inputs.length > caps.speechChars) {
    throw new GatewayError({
      status: 400,
      code: "invalid_request",
      message: `inputs has ${inputs.length} characters, above this server's bound of ${caps.speechChars} for ${task}.`,
      hint: `Send at most ${caps.speechChars} characters at a time.`,
      field: "inputs",
    });
  }
}

/**
 * The length a chat call on the server's keys gets when it sets none: the chat-completion spec's
 * default for max_tokens in @huggingface/tasks (the chat demo's default too), or the cap if lower.
 * Left out, an OpenAI-compatible server runs to the rest of the model's context, past the cap.
 * Text generation is left alone: TGI's own default is 20 tokens, and a bound near the cap was
 * refused (422) by small-context models such as gpt2.
 */
export const CHAT_DEFAULT_MAX_TOKENS = 1024;

/** The parameters that bound a call's length, whichever name a task uses. */
const LENGTH_PARAMETERS = Object.keys(CAP_OF).filter((k) => CAP_OF[k]!.cap === "maxTokens");

/** The parameters, with a chat call's length bounded when they set none (a null is none). */
export function withTokenBound(task: string | null, parameters: Record<string, unknown> | undefined, caps: CostCaps): Record<string, unknown> | undefined {
  if (task !== "conversational") return parameters;
  if (LENGTH_PARAMETERS.some((k) => typeof parameters?.[k] === "number")) return parameters;
  return { ...parameters, max_tokens: Math.min(CHAT_DEFAULT_MAX_TOKENS, caps.maxTokens) };
}

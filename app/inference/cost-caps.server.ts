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

/** The parameter that bounds a generating task's output, for the tasks that generate tokens. */
const TOKEN_BOUND: Readonly<Record<string, string>> = { conversational: "max_tokens", "text-generation": "max_new_tokens" };
const TOKEN_FIELDS = Object.keys(CAP_OF).filter((k) => CAP_OF[k]!.cap === "maxTokens");

/**
 * The parameters, bounded at the server's token cap when they set no length: a call on the
 * server's keys that leaves the length out otherwise runs to the provider's own default, which
 * the cap does not reach.
 */
export function withTokenBound(task: string | null, parameters: Record<string, unknown> | undefined, caps: CostCaps): Record<string, unknown> | undefined {
  const field = task === null ? undefined : TOKEN_BOUND[task];
  if (field === undefined || TOKEN_FIELDS.some((k) => parameters?.[k] !== undefined)) return parameters;
  return { ...parameters, [field]: caps.maxTokens };
}

/** Tasks whose answer is generated text, charged in tokens against a daily quota. */
const TEXT_GENERATING: ReadonlySet<string> = new Set(["conversational", "text-generation", "summarization", "translation"]);

/** The first length bound set anywhere in the parameters (a summariser's sits in generate_parameters). */
function lengthBound(value: unknown, depth: number): number | null {
  if (depth > 4 || typeof value !== "object" || value === null || Array.isArray(value)) return null;
  for (const [key, v] of Object.entries(value)) if (TOKEN_FIELDS.includes(key) && typeof v === "number" && v > 0) return v;
  for (const v of Object.values(value)) {
    const nested = lengthBound(v, depth + 1);
    if (nested !== null) return nested;
  }
  return null;
}

const textLength = (value: unknown): number => (typeof value === "string" ? value.length : Array.isArray(value) || (typeof value === "object" && value !== null) ? JSON.stringify(value).length : 0);

/**
 * The tokens to charge a text-generating call whose provider reported none (only OpenAI-style
 * chat answers carry `usage`): its length bound, or the cap, plus its input at four characters a
 * token. Charging nothing let text generation and summarisation run past a daily token quota.
 * Zero for other tasks, which a token quota does not measure.
 */
export function unreportedTokenCharge(task: string | null, parameters: unknown, inputs: unknown, messages: unknown, caps: CostCaps): number {
  if (task === null || !TEXT_GENERATING.has(task)) return 0;
  return (lengthBound(parameters, 0) ?? caps.maxTokens) + Math.ceil((textLength(inputs) + textLength(messages)) / 4);
}

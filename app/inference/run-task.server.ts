/**
 * Dispatch to @huggingface/inference's task functions (each task's call is in
 * app/tasks/task-calls.server.ts), with the library's endless 503 retry
 * turned off (`retry_on_error: false`) and replaced by a bounded retry with backoff that stops
 * at the request's deadline. Chat calls carry `chatCompletion: true` so the library can report
 * "Server … does not seem to support chat completion" (see docs/decisions).
 */
import { INFERENCE_PROVIDERS, type InferenceProviderOrPolicy, request as customRequest } from "@huggingface/inference";
import { GatewayError, isRetryableLoading } from "#app/inference/errors.server.ts";
import type { UpstreamObservation } from "#app/inference/hub-fetch.server.ts";
import { type MediaKind, sniffMedia } from "#app/inference/media-types.ts";
import { parameterNames } from "#app/inference/task-parameters.server.ts";
import { type CallArgs, type LibraryOptions, type RawInputs, streamChat, streamText, TASK_CALLS } from "#app/tasks/task-calls.server.ts";
import { isTaskName, TASK_NAMES } from "#app/tasks/task-records.ts";

/** The chat-completion input fields a visitor may set through `parameters`: the spec's, minus model/messages/stream. */
export const CHAT_PARAMETER_KEYS: ReadonlySet<string> = new Set(parameterNames("conversational"));

export const STREAMING_TASKS = new Set(["conversational", "text-generation"]);

export interface TaskCall {
  /** null: neither the body nor the catalogue names one; the library's generic request() decides. */
  task: string | null;
  model: string | undefined;
  provider: string | undefined;
  endpointUrl: string | undefined;
  accessToken: string | undefined;
  /** As the task function takes them: binary inputs are already Blobs (task-inputs.server.ts). */
  inputs: unknown;
  messages: unknown[] | undefined;
  parameters: Record<string, unknown> | undefined;
  billTo: string | undefined;
}

export type TaskResult = { kind: "json"; data: unknown } | { kind: "blob"; blob: Blob };

const PROVIDERS: ReadonlySet<string> = new Set(INFERENCE_PROVIDERS);
export const isProviderOrPolicy = (name: string): name is InferenceProviderOrPolicy => name === "auto" || PROVIDERS.has(name);

/**
 * A provider the library does not know, worded as the library words it, then what is accepted:
 * "auto", and the configured endpoints, which go in `endpoint`.
 */
export function unknownProvider(provider: string, endpointNames: readonly string[] = []): GatewayError {
  const endpoints = endpointNames.length > 0 ? ` This server's endpoints are named in "endpoint" instead: ${endpointNames.join(", ")}.` : "";
  return new GatewayError({
    status: 400,
    code: "library_validation",
    message: `Provider '${provider}' not supported. Available providers: ${INFERENCE_PROVIDERS.join(",")}. Or "auto", which picks one that serves the model.${endpoints}`,
    hint: "This provider is not one the inference library knows.",
    field: "provider",
  });
}

/** The route and credential as the library's BaseArgs (resolveTarget has refused an unknown provider). */
function baseArgs(call: TaskCall): CallArgs {
  const args: CallArgs = {};
  if (call.model !== undefined) args.model = call.model;
  if (call.provider !== undefined) {
    if (!isProviderOrPolicy(call.provider)) throw unknownProvider(call.provider);
    args.provider = call.provider;
  }
  if (call.endpointUrl !== undefined) args.endpointUrl = call.endpointUrl;
  if (call.accessToken !== undefined) args.accessToken = call.accessToken;
  return args;
}

function chatArgs(call: TaskCall): CallArgs {
  const args = baseArgs(call);
  for (const k of Object.keys(call.parameters ?? {})) {
    if (!CHAT_PARAMETER_KEYS.has(k)) {
      throw new GatewayError({ status: 400, code: "invalid_request", message: `parameters.${k} is not a chat-completion parameter. Allowed: ${[...CHAT_PARAMETER_KEYS].join(", ")}.`, field: `parameters.${k}` });
    }
  }
  if (!call.messages) throw new GatewayError({ status: 400, code: "invalid_request", message: "A conversational call needs `messages`.", field: "messages" });
  if (call.parameters) args.parameters = call.parameters;
  return args;
}

function inputArgs(call: TaskCall): CallArgs {
  const args = baseArgs(call);
  if (call.inputs === undefined) throw new GatewayError({ status: 400, code: "invalid_request", message: `The ${call.task ?? "request"} task needs \`inputs\`.`, field: "inputs" });
  if (call.parameters) args.parameters = call.parameters;
  return args;
}

const rawInputs = (task: string, call: TaskCall): RawInputs => ({ task, inputs: call.inputs, messages: call.messages });

/** Every task the gateway can dispatch: every task record. */
export const GATEWAY_TASKS: ReadonlySet<string> = new Set(TASK_NAMES);

export function unknownTask(task: string): GatewayError {
  return new GatewayError({ status: 400, code: "invalid_request", message: `The gateway does not run the task "${task}". It runs: ${[...GATEWAY_TASKS].sort().join(", ")}.`, field: "task" });
}

/** An answer in a shape the task cannot have, worded as the library words its own checks. */
export function unexpectedOutput(task: string, expected: string): GatewayError {
  return new GatewayError({
    status: 502,
    code: "unexpected_output",
    message: `Invalid inference output: ${expected}`,
    hint: `The provider's ${task} answer is not in the shape the inference library expects.`,
  });
}

const isNumberTree = (v: unknown, depth: number): boolean =>
  typeof v === "number" || (depth > 0 && Array.isArray(v) && v.every((x) => isNumberTree(x, depth - 1)));

/**
 * A chat answer the gateway can read: hf-inference's chat helper (and so every configured
 * endpoint) passes the provider's answer through unchecked, where the other providers' helpers
 * check the ChatCompletionOutput shape.
 */
function checkChatOutput(data: unknown): unknown {
  const choices: unknown = isObject(data) ? data["choices"] : undefined;
  if (!Array.isArray(choices) || !choices.every((c) => isObject(c) && isObject(c["message"]))) throw unexpectedOutput("conversational", "Expected ChatCompletionOutput");
  return data;
}

/**
 * Checks the library leaves out for some providers: hf-inference speech recognition is passed
 * through unchecked, and the nebius and sambanova embeddings map whatever `data` holds.
 */
function checkJsonOutput(task: string, data: unknown): unknown {
  if (task === "automatic-speech-recognition" && (typeof data !== "object" || data === null || typeof (data as { text?: unknown }).text !== "string")) {
    throw unexpectedOutput(task, "Expected {text: string}");
  }
  if (task === "feature-extraction" && !(Array.isArray(data) && isNumberTree(data, 4))) {
    throw unexpectedOutput(task, "Expected Array<number[][][] | number[][] | number[] | number>");
  }
  if (task === "audio-to-audio" && Array.isArray(data)) {
    // Each track's bytes say what it is; the provider's "content-type" is not trusted.
    return data.map((track: { blob: string; label: string }) => {
      const media = sniffMedia(Buffer.from(track.blob, "base64").subarray(0, 64));
      if (!media?.kinds.includes("audio")) throw unexpectedOutput(task, `Expected audio in the track labelled "${track.label}"`);
      return { label: track.label, "content-type": media.mime.replace(/^video\//, "audio/"), blob: track.blob };
    });
  }
  return data;
}

/** Generated media typed by its own bytes; anything that is not the task's kind of media is refused. */
async function checkMediaOutput(task: string, kind: MediaKind, value: unknown): Promise<Blob> {
  if (!(value instanceof Blob)) throw unexpectedOutput(task, `Expected ${kind} bytes`);
  const media = sniffMedia(new Uint8Array(await value.slice(0, 64).arrayBuffer()));
  if (!media?.kinds.includes(kind)) throw unexpectedOutput(task, `Expected ${kind} bytes, got ${media ? media.label : `${value.size} bytes of no known ${kind} format`}`);
  const mime = kind === "audio" ? media.mime.replace(/^video\//, "audio/") : media.mime;
  return value.type === mime ? value : new Blob([value], { type: mime });
}

/**
 * A TypeError from inside a task function is the library reading a field the answer lacks (for
 * example nebius embeddings without `data`), or building a URL from one (Black Forest Labs'
 * `polling_url`, which Node's URL parser refuses with ERR_INVALID_URL); network failures are
 * TypeErrors too, and pass on.
 */
function asShapeError(task: string, error: unknown): unknown {
  const invalidUrl = error instanceof TypeError && "code" in error && error.code === "ERR_INVALID_URL";
  if (error instanceof TypeError && (invalidUrl || /^Cannot read propert|is not a function|is not iterable/.test(error.message))) {
    return unexpectedOutput(task, `the answer could not be read (${error.message})`);
  }
  return error;
}

/** One non-streaming call to the library. */
export async function callLibrary(call: TaskCall, options: LibraryOptions): Promise<TaskResult> {
  const task = call.task;
  if (task === null) {
    // Neither model task nor request task: let the library apply its own rules.
    const data: unknown = await customRequest({ ...baseArgs(call), inputs: call.inputs, ...(call.parameters ? { parameters: call.parameters } : {}) }, options);
    if (!(data instanceof Blob)) return { kind: "json", data };
    const media = sniffMedia(new Uint8Array(await data.slice(0, 64).arrayBuffer()));
    return { kind: "blob", blob: media && media.mime !== data.type ? new Blob([data], { type: media.mime }) : data };
  }
  if (!isTaskName(task)) throw unknownTask(task);
  if (task === "conversational") return { kind: "json", data: checkChatOutput(await TASK_CALLS.conversational.run(chatArgs(call), rawInputs(task, call), options)) };
  const spec = TASK_CALLS[task];
  const args = inputArgs(call);
  try {
    const answer = await spec.run(args, rawInputs(task, call), options);
    if (spec.answer !== "json") return { kind: "blob", blob: await checkMediaOutput(task, spec.answer, answer) };
    return { kind: "json", data: checkJsonOutput(task, answer) };
  } catch (error) {
    throw asShapeError(task, error);
  }
}

/** Streamed chunks, as the library yields them (chat deltas or text-generation tokens). */
export type StreamChunk =
  | {
      kind: "chat";
      delta: string;
      finishReason: string | null;
      usage: Usage | null;
      model: string | null;
      /** The provider's chunk as it came (tool-call deltas, logprobs), for the OpenAI-compatible /v1 stream. */
      raw: unknown;
    }
  | {
      kind: "text";
      delta: string;
      finished: boolean;
      /** The provider's own word for why it stopped, in its dialect (TGI's "eos_token", OpenAI's "stop"), on the last chunk. */
      finishReason: string | null;
      /** The provider's counts, on the chunk that carries them: TGI's details count only what it generated. */
      usage: Usage | null;
    };

export interface Usage {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function toUsage(u: unknown): Usage | null {
  if (typeof u !== "object" || u === null) return null;
  const r = u as Record<string, unknown>;
  return { promptTokens: num(r["prompt_tokens"]), completionTokens: num(r["completion_tokens"]), totalTokens: num(r["total_tokens"]) };
}

/** A stream of chunks the pump reads one at a time; return() stops it and releases the upstream socket. */
export interface ChunkStream {
  next(): Promise<IteratorResult<StreamChunk, undefined>>;
  return(): Promise<unknown>;
}

/**
 * The library's generator, each chunk mapped as it is read. A mapping iterator, not a second
 * async generator: that would add a round of promises per token.
 */
function mapChunks<T>(source: AsyncGenerator<T>, map: (chunk: T) => StreamChunk): ChunkStream {
  return {
    next: () => source.next().then((r): IteratorResult<StreamChunk, undefined> => (r.done ? { done: true, value: undefined } : { done: false, value: map(r.value) })),
    return: () => source.return(undefined),
  };
}

/**
 * One chunk of textGenerationStream. 3.13.1 passes each provider's stream events through as they
 * are, typed as TGI's: hf-inference and TGI endpoints send `token.text`, the OpenAI-completions
 * providers (together, featherless-ai, ovhcloud, …) `choices[0].text`, and those whose text
 * generation goes to a chat route (hyperbolic) `choices[0].delta.content`.
 */
export function textGenerationChunk(chunk: unknown): Extract<StreamChunk, { kind: "text" }> {
  const r = isObject(chunk) ? chunk : {};
  const token = isObject(r["token"]) ? r["token"] : null;
  if (token) {
    const details = isObject(r["details"]) ? r["details"] : null;
    return {
      kind: "text",
      delta: token["special"] === true || typeof token["text"] !== "string" ? "" : token["text"],
      finished: r["generated_text"] !== null && r["generated_text"] !== undefined,
      finishReason: typeof details?.["finish_reason"] === "string" ? details["finish_reason"] : null,
      usage: num(details?.["generated_tokens"]) === null ? null : { promptTokens: null, completionTokens: num(details?.["generated_tokens"]), totalTokens: null },
    };
  }
  const choice: unknown = Array.isArray(r["choices"]) ? r["choices"][0] : null;
  const c = isObject(choice) ? choice : {};
  const delta = isObject(c["delta"]) ? c["delta"]["content"] : c["text"];
  return {
    kind: "text",
    delta: typeof delta === "string" ? delta : "",
    finished: typeof c["finish_reason"] === "string",
    finishReason: typeof c["finish_reason"] === "string" ? c["finish_reason"] : null,
    usage: toUsage(r["usage"]),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A streaming call: the library's generator, normalised to StreamChunk. */
export function streamLibrary(call: TaskCall, options: LibraryOptions): ChunkStream {
  if (call.task === "conversational") {
    const gen = streamChat(chatArgs(call), rawInputs(call.task, call), options);
    return mapChunks(gen, (chunk) => {
      const choice = chunk.choices?.[0];
      const delta = typeof choice?.delta?.content === "string" ? choice.delta.content : "";
      const usage = "usage" in chunk ? toUsage(chunk.usage) : null;
      return { kind: "chat", delta, finishReason: choice?.finish_reason ?? null, usage, model: typeof chunk.model === "string" ? chunk.model : null, raw: chunk };
    });
  }
  if (call.task === "text-generation") {
    const gen = streamText(inputArgs(call), rawInputs(call.task, call), options);
    return mapChunks(gen, (chunk) => textGenerationChunk(chunk));
  }
  throw new GatewayError({ status: 400, code: "invalid_request", message: `stream: true is only for the conversational and text-generation tasks, not "${call.task ?? "(none)"}".`, field: "stream" });
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  /** Absolute time (performance.now()) at which the deadline fires. */
  deadlineAt: number;
  signal: AbortSignal;
  observation: UpstreamObservation;
  onRetry?: (attempt: number, delayMs: number) => void;
}

/** The signal's reason, which AbortController.abort() always makes an Error unless given something else. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Runs `attempt` again after a 503 "model is loading", with exponential backoff (honouring the
 * provider's estimated_time, capped), at most maxRetries times and never past the deadline.
 */
export async function withBoundedRetry<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= policy.maxRetries || !isRetryableLoading(error, policy.observation)) throw error;
      const backoff = policy.baseDelayMs * 2 ** retry;
      const estimated = policy.observation.estimatedTimeSec;
      const wanted = estimated !== null ? Math.min(Math.max(backoff, estimated * 1000), backoff * 4) : backoff;
      const remaining = policy.deadlineAt - performance.now();
      // Waiting past the deadline only to be cut off helps nobody: report the 503 now.
      if (remaining <= wanted) throw error;
      policy.onRetry?.(retry + 1, wanted);
      await sleep(wanted, policy.signal);
    }
  }
}

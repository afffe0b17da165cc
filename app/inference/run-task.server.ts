/**
 * Dispatch to @huggingface/inference's task functions, with the library's endless 503 retry
 * turned off (`retry_on_error: false`) and replaced by a bounded retry with backoff that stops
 * at the request's deadline. Chat calls carry `chatCompletion: true` so the library can report
 * "Server … does not seem to support chat completion" (see docs/decisions).
 */
import {
  audioClassification,
  automaticSpeechRecognition,
  chatCompletion,
  chatCompletionStream,
  featureExtraction,
  fillMask,
  imageClassification,
  imageToText,
  objectDetection,
  type Options,
  questionAnswering,
  request as customRequest,
  sentenceSimilarity,
  summarization,
  tableQuestionAnswering,
  textClassification,
  textGeneration,
  textGenerationStream,
  textToImage,
  textToSpeech,
  tokenClassification,
  translation,
  zeroShotClassification,
} from "@huggingface/inference";
import { GatewayError, isRetryableLoading } from "#app/inference/errors.server.ts";
import type { UpstreamObservation } from "#app/inference/hub-fetch.server.ts";
import { parameterNames } from "#app/inference/task-parameters.server.ts";

/** The chat-completion input fields a visitor may set through `parameters`: the spec's, minus model/messages/stream. */
export const CHAT_PARAMETER_KEYS: ReadonlySet<string> = new Set(parameterNames("conversational"));

/** Tasks whose `inputs` is media, sent by visitors as a base64 data: URL. */
const MEDIA_INPUT_TASKS = new Set(["automatic-speech-recognition", "audio-classification", "image-classification", "object-detection", "image-to-text"]);
const TEXT_TASKS = new Set([
  "text-classification",
  "token-classification",
  "fill-mask",
  "question-answering",
  "summarization",
  "translation",
  "feature-extraction",
  "sentence-similarity",
  "zero-shot-classification",
  "table-question-answering",
  "text-to-image",
  "text-to-speech",
]);
export const STREAMING_TASKS = new Set(["conversational", "text-generation"]);

/** Every task the gateway can dispatch. */
export const GATEWAY_TASKS: ReadonlySet<string> = new Set([...STREAMING_TASKS, ...TEXT_TASKS, ...MEDIA_INPUT_TASKS]);

export interface TaskCall {
  /** null: neither the body nor the catalogue names one; the library's generic request() decides. */
  task: string | null;
  model: string | undefined;
  provider: string | undefined;
  endpointUrl: string | undefined;
  accessToken: string | undefined;
  inputs: unknown;
  messages: unknown[] | undefined;
  parameters: Record<string, unknown> | undefined;
  billTo: string | undefined;
}

export type TaskResult = { kind: "json"; data: unknown } | { kind: "blob"; blob: Blob };

type LibraryOptions = Options & { chatCompletion?: boolean };

function baseArgs(call: TaskCall): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (call.model !== undefined) args["model"] = call.model;
  if (call.provider !== undefined) args["provider"] = call.provider;
  if (call.endpointUrl !== undefined) args["endpointUrl"] = call.endpointUrl;
  if (call.accessToken !== undefined) args["accessToken"] = call.accessToken;
  return args;
}

function chatArgs(call: TaskCall): Record<string, unknown> {
  const args = baseArgs(call);
  for (const [k, v] of Object.entries(call.parameters ?? {})) {
    if (!CHAT_PARAMETER_KEYS.has(k)) {
      throw new GatewayError({ status: 400, code: "invalid_request", message: `parameters.${k} is not a chat-completion parameter. Allowed: ${[...CHAT_PARAMETER_KEYS].join(", ")}.`, field: `parameters.${k}` });
    }
    args[k] = v;
  }
  if (!call.messages) throw new GatewayError({ status: 400, code: "invalid_request", message: "A conversational call needs `messages`.", field: "messages" });
  args["messages"] = call.messages;
  return args;
}

function inputArgs(call: TaskCall): Record<string, unknown> {
  const args = baseArgs(call);
  if (call.inputs === undefined) throw new GatewayError({ status: 400, code: "invalid_request", message: `The ${call.task ?? "request"} task needs \`inputs\`.`, field: "inputs" });
  args["inputs"] = call.inputs;
  if (call.parameters) args["parameters"] = call.parameters;
  return args;
}

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+)(?:;[a-z-]+=[^;,]+)*;base64,([A-Za-z0-9+/=\s]*)$/i;

/** A visitor's media input (a base64 data: URL) as the Blob the library expects. */
export function dataUrlToBlob(value: unknown, task: string): Blob {
  if (typeof value !== "string") throw new GatewayError({ status: 400, code: "invalid_request", message: `${task} takes \`inputs\` as a base64 data: URL (data:<type>;base64,...).`, field: "inputs" });
  const m = DATA_URL.exec(value);
  if (!m) throw new GatewayError({ status: 400, code: "invalid_request", message: `${task} takes \`inputs\` as a base64 data: URL (data:<type>;base64,...); other URLs are never fetched.`, field: "inputs" });
  return new Blob([Buffer.from(m[2] ?? "", "base64")], { type: (m[1] ?? "").toLowerCase() });
}

type Args<F extends (...a: never[]) => unknown> = Parameters<F>[0];

/** One non-streaming call to the library. */
export async function callLibrary(call: TaskCall, options: LibraryOptions): Promise<TaskResult> {
  const json = (data: unknown): TaskResult => ({ kind: "json", data });
  const task = call.task;
  if (task === null) {
    // Neither model task nor request task: let the library apply its own rules.
    const args = baseArgs(call);
    if (call.inputs !== undefined) args["inputs"] = call.inputs;
    if (call.parameters) args["parameters"] = call.parameters;
    const data: unknown = await customRequest(args as unknown as Args<typeof customRequest>, options);
    return data instanceof Blob ? { kind: "blob", blob: data } : json(data);
  }
  if (task === "conversational") return json(await chatCompletion(chatArgs(call) as unknown as Args<typeof chatCompletion>, { ...options, chatCompletion: true } as LibraryOptions));
  if (MEDIA_INPUT_TASKS.has(task)) {
    const args = baseArgs(call);
    args["inputs"] = dataUrlToBlob(call.inputs, task);
    if (call.parameters) args["parameters"] = call.parameters;
    switch (task) {
      case "automatic-speech-recognition":
        return json(await automaticSpeechRecognition(args as unknown as Args<typeof automaticSpeechRecognition>, options));
      case "audio-classification":
        return json(await audioClassification(args as unknown as Args<typeof audioClassification>, options));
      case "image-classification":
        return json(await imageClassification(args as unknown as Args<typeof imageClassification>, options));
      case "object-detection":
        return json(await objectDetection(args as unknown as Args<typeof objectDetection>, options));
      default:
        return json(await imageToText(args as unknown as Args<typeof imageToText>, options));
    }
  }
  const args = inputArgs(call);
  switch (task) {
    case "text-generation":
      return json(await textGeneration(args as unknown as Args<typeof textGeneration>, options));
    case "text-classification":
      return json(await textClassification(args as unknown as Args<typeof textClassification>, options));
    case "token-classification":
      return json(await tokenClassification(args as unknown as Args<typeof tokenClassification>, options));
    case "fill-mask":
      return json(await fillMask(args as unknown as Args<typeof fillMask>, options));
    case "question-answering":
      return json(await questionAnswering(args as unknown as Args<typeof questionAnswering>, options));
    case "summarization":
      return json(await summarization(args as unknown as Args<typeof summarization>, options));
    case "translation":
      return json(await translation(args as unknown as Args<typeof translation>, options));
    case "feature-extraction":
      return json(await featureExtraction(args as unknown as Args<typeof featureExtraction>, options));
    case "sentence-similarity":
      return json(await sentenceSimilarity(args as unknown as Args<typeof sentenceSimilarity>, options));
    case "zero-shot-classification":
      return json(await zeroShotClassification(args as unknown as Args<typeof zeroShotClassification>, options));
    case "table-question-answering":
      return json(await tableQuestionAnswering(args as unknown as Args<typeof tableQuestionAnswering>, options));
    case "text-to-image":
      return { kind: "blob", blob: await textToImage(args as unknown as Args<typeof textToImage>, { ...options, outputType: "blob" }) };
    case "text-to-speech":
      return { kind: "blob", blob: await textToSpeech(args as unknown as Args<typeof textToSpeech>, options) };
    default:
      throw new GatewayError({
        status: 400,
        code: "invalid_request",
        message: `The gateway does not run the task "${task}". It runs: ${[...GATEWAY_TASKS].sort().join(", ")}.`,
        field: "task",
      });
  }
}

/** Streamed chunks, as the library yields them (chat deltas or text-generation tokens). */
export type StreamChunk = { kind: "chat"; delta: string; finishReason: string | null; usage: Usage | null; model: string | null } | { kind: "text"; delta: string; finished: boolean; generatedTokens: number | null };

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

/** A streaming call: the library's generator, normalised to StreamChunk. */
export function streamLibrary(call: TaskCall, options: LibraryOptions): ChunkStream {
  if (call.task === "conversational") {
    const gen = chatCompletionStream(chatArgs(call) as unknown as Args<typeof chatCompletionStream>, { ...options, chatCompletion: true } as LibraryOptions);
    return mapChunks(gen, (chunk) => {
      const choice = chunk.choices?.[0];
      const delta = typeof choice?.delta?.content === "string" ? choice.delta.content : "";
      const usage = "usage" in chunk ? toUsage((chunk as { usage?: unknown }).usage) : null;
      return { kind: "chat", delta, finishReason: choice?.finish_reason ?? null, usage, model: typeof chunk.model === "string" ? chunk.model : null };
    });
  }
  if (call.task === "text-generation") {
    const gen = textGenerationStream(inputArgs(call) as unknown as Args<typeof textGenerationStream>, options);
    return mapChunks(gen, (chunk) => {
      const special = chunk.token?.special === true;
      return {
        kind: "text",
        delta: special ? "" : (chunk.token?.text ?? ""),
        finished: chunk.generated_text !== null && chunk.generated_text !== undefined,
        generatedTokens: num(chunk.details?.generated_tokens),
      };
    });
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
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

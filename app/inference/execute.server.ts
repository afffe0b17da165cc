/**
 * The gateway's last step: one resolved call through @huggingface/inference under the deadline,
 * with the bounded 503 retry, answered as JSON, media bytes, or an event stream to pump. The
 * deadline and the visitor going away both abort the upstream call.
 */
import { type CostCaps, largestBounded } from "#app/inference/cost-caps.server.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";
import { endpointOrigins } from "#app/inference/endpoints.server.ts";
import { ClientClosedError, classifyError, DeadlineExceededError, type GatewayErrorBody, ShuttingDownError, seconds } from "#app/inference/errors.server.ts";
import type { GatewayConfig } from "#app/inference/gateway-config.server.ts";
import { createGatewayFetch, runWithGatewayFetch, type UpstreamObservation } from "#app/inference/hub-fetch.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";
import type { InferenceTarget } from "#app/inference/resolve-target.server.ts";
import { callLibrary, type ChunkStream, type StreamChunk, streamLibrary, type TaskCall, withBoundedRetry } from "#app/inference/run-task.server.ts";
import { SSE_HEADERS, type StreamPumpOptions } from "#app/inference/stream.server.ts";

/** The answer, for the adapter to write: JSON text, media bytes, or an event stream to pump. */
export type GatewayOutcome =
  | {
      kind: "json";
      status: number;
      headers: Record<string, string>;
      body: string;
      /** An error answer's cause, for routes that word errors their own way (the /v1 routes). */
      error?: GatewayErrorBody;
      /** A successful answer's output before it was written into `body`, for the same routes. */
      output?: unknown;
    }
  | { kind: "blob"; status: number; headers: Record<string, string>; blob: Blob }
  | { kind: "stream"; status: number; headers: Record<string, string>; stream: StreamPumpOptions };

export type LogFields = Record<string, string | number | null | undefined>;

export interface ExecuteContext {
  catalog: GatewayCatalog;
  env: EnvLike;
  config: GatewayConfig;
  /** performance.now() when the request arrived: the deadline and timings count from it. */
  startedAt: number;
  /** Aborts when the visitor goes away. */
  signal: AbortSignal;
  /** Every secret of this request, scrubbed from error messages. */
  secrets: ReadonlyArray<string | undefined>;
  /** The request's log line, written once it ends. */
  logLine(fields: LogFields): void;
  /** An error answer, logged with `extra`. */
  fail(body: GatewayErrorBody, extra: LogFields): GatewayOutcome;
}

/**
 * Whether @huggingface/inference 3.13.1 may call the global fetch for this call: only chat and
 * text generation with a model and an explicit provider (or an endpoint) are known not to (no
 * default-model or "auto" lookup, no media download).
 */
export function usesGlobalFetch(call: TaskCall): boolean {
  if (call.task !== "conversational" && call.task !== "text-generation") return true;
  if (call.endpointUrl !== undefined) return false;
  return call.model === undefined || call.provider === undefined || call.provider === "auto";
}

/** Token counts a provider reported with a chat or text answer (OpenAI's `usage`), if any. */
function reportedUsage(data: unknown): { in: number | undefined; out: number | undefined } | null {
  if (typeof data !== "object" || data === null || !("usage" in data)) return null;
  const usage = data.usage;
  if (typeof usage !== "object" || usage === null) return null;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined);
  return { in: num((usage as { prompt_tokens?: unknown }).prompt_tokens), out: num((usage as { completion_tokens?: unknown }).completion_tokens) };
}

/** Tasks whose answer is generated text, which a daily token quota counts. */
const TEXT_GENERATING: ReadonlySet<string> = new Set(["conversational", "text-generation", "summarization", "translation"]);

/**
 * What a chat message's image counts for: OpenAI charges a low-detail image 85 tokens. Counted by
 * its data URL's length, one 1 MB image came to some 340k "tokens" and spent a day's quota.
 */
const IMAGE_CHARS = 85 * 4;

/** An image sent inline, as a chat message's image part carries one. */
const INLINE_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,/i;

/**
 * Characters of every text in a value (an answer's texts, a request's inputs or messages). Only a
 * chat image part whose URL is an inline image counts as IMAGE_CHARS: any string starting with
 * "data:" once did, so 108k characters of text so prefixed were estimated at 85 tokens. A part
 * that points at an image elsewhere counts as its text does, and never below an image's share.
 * (The image inputs of image tasks are Blobs by the time a call is counted: task-inputs.server.ts.)
 */
export function textChars(value: unknown, depth = 0): number {
  if (typeof value === "string") return value.length;
  if (depth > 6 || typeof value !== "object" || value === null) return 0;
  const imageUrl = "type" in value && value.type === "image_url" && "image_url" in value ? value.image_url : undefined;
  if (typeof imageUrl === "object" && imageUrl !== null) {
    const url = "url" in imageUrl ? imageUrl.url : undefined;
    if (typeof url === "string" && INLINE_IMAGE.test(url)) return IMAGE_CHARS;
  }
  let n = 0;
  for (const v of Array.isArray(value) ? value : Object.values(value)) n += textChars(v, depth + 1);
  return imageUrl === undefined ? n : Math.max(n, IMAGE_CHARS);
}

/**
 * Tokens of a text-generating call whose provider reported none (only OpenAI-style chat answers
 * carry `usage`), estimated from its input and its answer at four characters a token. Charged to
 * the caller's daily token quota, which text generation and summaries otherwise ran past; logged
 * as tokens_est, never as counts the provider gave. A stream counts its own chunks, so only its
 * prompt is estimated (`data` undefined).
 */
export function estimatedTokens(call: Pick<InferenceTarget["call"], "task" | "inputs" | "messages">, data: unknown): number | undefined {
  if (call.task === null || !TEXT_GENERATING.has(call.task)) return undefined;
  // TGI's `details` (which /v1/completions asks for) repeat the answer token by token: not more answer.
  const answer = typeof data === "object" && data !== null && !Array.isArray(data) && "details" in data ? { ...data, details: null } : data;
  return Math.ceil((textChars(call.inputs) + textChars(call.messages) + textChars(answer)) / 4);
}

/**
 * The most a call may be charged to a daily token quota, held before it is made (reserveTokens in
 * app/auth): its prompt, estimated as above, and its longest answer, the length it asks for (the
 * token cap when it sets none: text generation gets no default) times the answers it asks for. A
 * call that generates no text is charged nothing, as above.
 */
export function worstCaseTokens(call: TaskCall, caps: CostCaps): number {
  const prompt = estimatedTokens(call, undefined);
  if (prompt === undefined) return 0;
  const length = Math.max(0, Math.min(largestBounded(call.parameters, "maxTokens") ?? caps.maxTokens, caps.maxTokens));
  const answers = Math.max(1, Math.min(largestBounded(call.parameters, "choices") ?? 1, caps.choices));
  return prompt + length * answers;
}

// Calls waiting on their provider, each with its way to be cut short once shutdown's grace is over.
const waiting = new Set<() => void>();
// Set with the first abort: a call begun after it (a /v1 failover's next attempt, a request that
// arrived on a kept-alive connection) is cut short at once rather than when the sockets close.
let stopping = false;

/**
 * Aborts every call still waiting on its provider's answer (a stream not yet begun included), which
 * each then answers 503 server_shutting_down in its own shape: what shutdown does once its grace
 * has passed, beside ending the streams (stream.server.ts). Before, such a request's connection
 * was cut with no answer. Returns how many were aborted.
 */
export function abortWaitingCalls(): number {
  stopping = true;
  const ending = [...waiting];
  for (const end of ending) end();
  return ending.length;
}

export async function executeCall(target: InferenceTarget, ctx: ExecuteContext): Promise<GatewayOutcome> {
  const { call, providerLabel } = target;
  const { config, startedAt } = ctx;
  const controller = new AbortController();
  let deadline: DeadlineExceededError | null = null;
  let clientClosed = false;
  let shuttingDown = false;
  const onShutdown = () => {
    shuttingDown = true;
    controller.abort(new ShuttingDownError());
  };
  waiting.add(onShutdown);
  if (stopping) onShutdown();
  const cut = (why: DeadlineExceededError) => {
    deadline = why;
    controller.abort(why);
  };
  // The deadline counts from the request's arrival: reading its body spent part of it.
  let timer = setTimeout(() => cut(new DeadlineExceededError(config.deadlineMs)), Math.max(0, config.deadlineMs - (performance.now() - startedAt)));
  let streamTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  const onClientAbort = () => {
    clientClosed = true;
    controller.abort(new ClientClosedError("The client closed the request."));
  };
  if (ctx.signal.aborted) onClientAbort();
  else ctx.signal.addEventListener("abort", onClientAbort, { once: true });
  const cleanup = () => {
    clearTimeout(timer);
    clearTimeout(streamTimer);
    waiting.delete(onShutdown);
    ctx.signal.removeEventListener("abort", onClientAbort);
  };

  const observation: UpstreamObservation = { status: null, estimatedTimeSec: null, host: null, requests: 0, refusal: null, retryAfterSec: null, tooLarge: null };
  const gatewayFetch = createGatewayFetch({
    catalog: ctx.catalog,
    override: config.override,
    signal: controller.signal,
    endpointOrigins: endpointOrigins(ctx.env),
    requireCredential: target.requireCredential,
    maxAnswerBytes: config.maxAnswerBytes,
    observation,
  });
  // The scoped global-fetch hook costs every promise in the process while active, so only calls
  // that can reach the library's global fetch (default model, "auto", media downloads) enter it.
  const inScope = <T>(fn: () => Promise<T>): Promise<T> => (usesGlobalFetch(call) ? runWithGatewayFetch(gatewayFetch, fn) : fn());
  const libraryOptions = {
    retry_on_error: false,
    fetch: gatewayFetch,
    signal: controller.signal,
    ...(call.billTo ? { billTo: call.billTo } : {}),
  };
  let retries = 0;
  const retryPolicy = {
    maxRetries: config.maxRetries,
    baseDelayMs: config.retryBaseMs,
    deadlineAt: startedAt + config.deadlineMs,
    signal: controller.signal,
    observation,
    onRetry: () => {
      retries += 1;
    },
  };
  const classify = (error: unknown): GatewayErrorBody => {
    const out = classifyError(error, { observation, deadline, clientClosed, shuttingDown, secrets: ctx.secrets, provider: target.provider, task: target.task, credential: target.credential.source });
    if (out.code === "model_loading") {
      out.retryAfterSec = Math.max(1, Math.ceil(observation.estimatedTimeSec ?? observation.retryAfterSec ?? 30));
      out.message = `${out.message} (gave up after ${retries + 1} attempt${retries === 0 ? "" : "s"})`;
    }
    return out;
  };
  const model = target.requestedModel;
  const baseLog = { task: target.task ?? "(none)", provider: providerLabel, model: model ?? "(none)", auth: target.credential.source, stream: target.stream ? 1 : 0, bill_to: call.billTo };

  if (!target.stream) {
    try {
      const result = await inScope(() => withBoundedRetry(() => callLibrary(call, libraryOptions), retryPolicy));
      const ms = Math.round(performance.now() - startedAt);
      const usage = result.kind === "blob" ? null : reportedUsage(result.data);
      const estimate = result.kind === "blob" || usage ? undefined : estimatedTokens(call, result.data);
      ctx.logLine({ status: 200, ...baseLog, retries, ms, tokens_in: usage?.in, tokens_out: usage?.out, tokens_est: estimate });
      const headers: Record<string, string> = {
        "Cache-Control": "no-store",
        "X-Modelyard-Provider": providerLabel,
        "Server-Timing": `inference;dur=${ms}`,
      };
      if (result.kind === "blob") {
        // run-task typed the media by its own bytes.
        return { kind: "blob", status: 200, blob: result.blob, headers: { ...headers, "Content-Type": result.blob.type || "application/octet-stream" } };
      }
      return {
        kind: "json",
        status: 200,
        body: JSON.stringify({ output: result.data, provider: providerLabel, model, task: target.task, timing: { totalMs: ms } }),
        headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
        output: result.data,
      };
    } catch (error) {
      return ctx.fail(classify(error), { ...baseLog, retries });
    } finally {
      cleanup();
    }
  }

  // Streaming: wait for the first chunk (or failure) so errors before any token get a real status.
  let started: { gen: ChunkStream; first: IteratorResult<StreamChunk, undefined> };
  try {
    started = await inScope(() =>
      withBoundedRetry(async () => {
        const gen = streamLibrary(call, libraryOptions);
        const first = await gen.next();
        return { gen, first };
      }, retryPolicy),
    );
  } catch (error) {
    cleanup();
    return ctx.fail(classify(error), { ...baseLog, retries });
  }
  // Begun: shutdown now ends it as a stream, with an error event (stream.server.ts).
  waiting.delete(onShutdown);
  // From the first chunk the deadline bounds each silence, and the stream as a whole has
  // streamMaxMs: 4096 tokens at 40 a second outlast 60 s, and were cut off (ADR 0006).
  clearTimeout(timer);
  // Whether the pump is waiting on the provider; when it is not, it is waiting for a visitor that
  // stopped reading (it reads nothing upstream meanwhile, stream.server.ts), and the silence is theirs.
  let reading = false;
  const silence = () => (reading ? `The provider sent nothing for ${seconds(config.deadlineMs)} s.` : `The client read nothing for ${seconds(config.deadlineMs)} s.`);
  timer = setTimeout(() => cut(new DeadlineExceededError(config.deadlineMs, silence())), config.deadlineMs);
  streamTimer = setTimeout(
    () => cut(new DeadlineExceededError(config.streamMaxMs, `The streamed answer did not finish within ${seconds(config.streamMaxMs)} s, the server's limit.`)),
    Math.max(0, config.streamMaxMs - (performance.now() - startedAt)),
  );
  const gen = started.gen;
  const rest: ChunkStream = {
    // refresh() restarts the silence timer in place: no timer made per token.
    next: () => {
      reading = true;
      return gen
        .next()
        .finally(() => (reading = false))
        .then((r) => {
          if (!r.done) timer.refresh();
          return r;
        });
    },
    return: () => gen.return(),
  };
  const streamOptions: StreamPumpOptions = {
    first: started.first,
    rest,
    startedAt,
    provider: providerLabel,
    model,
    toError: (error) => {
      const out = classify(error);
      const e: { status: number; code: string; message: string; hint?: string } = { status: out.status, code: out.code, message: out.message };
      if (out.hint) e.hint = out.hint;
      return e;
    },
    clientGone: () => ctx.signal.aborted,
    upstreamSignal: controller.signal,
    abortUpstream: () => {
      if (!controller.signal.aborted) {
        clientClosed = true;
        controller.abort(new ClientClosedError("The client closed the stream."));
      }
    },
    onEnd: (s) => {
      cleanup();
      // Most streams carry no usage (nothing here asks for it upstream): the prompt was still read.
      const promptEstimate = s.promptTokens === null || s.promptTokens === undefined ? estimatedTokens(call, undefined) : undefined;
      ctx.logLine({
        // The call's status, not the HTTP one (200, sent with the first token): a stream cut by a
        // provider error or the deadline is that error in the usage records, so their error
        // counts and /v1's "fastest" routing (successful calls only) do not take it for a success.
        status: s.outcome === "cancelled" ? 499 : s.outcome === "error" ? (s.errorStatus ?? 502) : 200,
        ...baseLog,
        outcome: s.outcome,
        code: s.errorCode,
        tokens: s.tokens,
        tokens_in: s.promptTokens,
        tokens_out: s.completionTokens ?? s.tokens,
        tokens_est: promptEstimate,
        ttft_ms: s.ttftMs === null ? null : Math.round(s.ttftMs),
        ms: Math.round(s.totalMs),
        retries,
      });
    },
  };
  return { kind: "stream", status: 200, headers: { ...SSE_HEADERS, "X-Modelyard-Provider": providerLabel }, stream: streamOptions };
}

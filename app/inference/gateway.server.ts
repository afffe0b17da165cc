/**
 * POST /api/inference, end to end: limits, body validation, endpoint and provider resolution,
 * credentials, then the library under a deadline with a bounded 503 retry, answered as JSON,
 * media bytes, or an SSE stream. run() is transport-free; handle() adapts it to Fetch (the React
 * Router route) and node-adapter.server.ts to Node's http (the production server's fast path).
 */
import type { CatalogModel } from "#app/catalog/model-record.ts";
import {
  type Credential,
  type EnvLike,
  redactSecrets,
  resolveCredential,
  serverSecrets,
  visitorTokenFrom,
} from "#app/inference/credentials.server.ts";
import { EndpointConfigError, endpointOrigins, findEndpoint } from "#app/inference/endpoints.server.ts";
import {
  ClientClosedError,
  classifyError,
  DeadlineExceededError,
  GatewayError,
  type GatewayErrorBody,
} from "#app/inference/errors.server.ts";
import { readGatewayConfig, type GatewayConfig } from "#app/inference/gateway-config.server.ts";
import { createGatewayFetch, runWithGatewayFetch, type UpstreamObservation } from "#app/inference/hub-fetch.server.ts";
import { type GatewayCatalog, libraryMappings } from "#app/inference/hub-lookups.server.ts";
import { RateLimiter, rateLimitError, readBodyLimited } from "#app/inference/limits.server.ts";
import { describeIssues, inferenceRequestSchema, type InferenceRequest } from "#app/inference/request-schema.ts";
import { checkTaskParameters } from "#app/inference/task-parameters.server.ts";
import {
  callLibrary,
  type ChunkStream,
  type StreamChunk,
  streamLibrary,
  STREAMING_TASKS,
  type TaskCall,
  withBoundedRetry,
} from "#app/inference/run-task.server.ts";
import { SSE_HEADERS, sseStream, type StreamPumpOptions } from "#app/inference/stream.server.ts";

export interface GatewayDeps {
  catalog: GatewayCatalog;
  env: EnvLike;
  /** One line per request; never receives a token (lines are scrubbed before this is called). */
  log?: (line: string) => void;
}

export interface HandleOptions {
  /** Who the rate limit counts against: the socket's remote address. */
  clientKey: string;
}

/** What the gateway reads from an incoming request, whichever HTTP adapter received it. */
export interface GatewayInput {
  headers: { get(name: string): string | null };
  /** The body as text; throws a GatewayError (413) past maxBytes. */
  readBody(maxBytes: number): Promise<string>;
  /** Aborts when the visitor goes away. */
  signal: AbortSignal;
  clientKey: string;
}

/** The answer, for the adapter to write: JSON text, media bytes, or an event stream to pump. */
export type GatewayOutcome =
  | { kind: "json"; status: number; headers: Record<string, string>; body: string }
  | { kind: "blob"; status: number; headers: Record<string, string>; blob: Blob }
  | { kind: "stream"; status: number; headers: Record<string, string>; stream: StreamPumpOptions };

export interface InferenceGateway {
  /** The Fetch adapter (React Router's action, tests). */
  handle(request: Request, opts: HandleOptions): Promise<Response>;
  run(input: GatewayInput): Promise<GatewayOutcome>;
  config: GatewayConfig;
}

function errorOutcome(body: GatewayErrorBody): GatewayOutcome {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  if (body.retryAfterSec !== undefined) headers["Retry-After"] = String(body.retryAfterSec);
  const error: Record<string, unknown> = { message: body.message, code: body.code };
  if (body.hint) error["hint"] = body.hint;
  if (body.upstreamStatus !== undefined) error["upstreamStatus"] = body.upstreamStatus;
  if (body.field !== undefined) error["field"] = body.field;
  return { kind: "json", status: body.status, headers, body: JSON.stringify({ error }) };
}

/** An outcome as a Fetch Response. */
export function outcomeToResponse(outcome: GatewayOutcome): Response {
  switch (outcome.kind) {
    case "json":
      return new Response(outcome.body, { status: outcome.status, headers: outcome.headers });
    case "blob":
      return new Response(outcome.blob, { status: outcome.status, headers: outcome.headers });
    case "stream":
      return new Response(sseStream(outcome.stream), { status: outcome.status, headers: outcome.headers });
  }
}

/** The task to run: the body's, else chat when messages are given, else the model's pipeline tag. */
function chooseTask(body: InferenceRequest, model: CatalogModel | null): string | null {
  if (body.task) return body.task === "text-generation" && body.messages ? "conversational" : body.task;
  if (body.messages) return "conversational";
  return model?.pipelineTag ?? null;
}

/** "auto" resolved from the catalogue: the first mapping for the task, preferring providers we hold a key for. */
function chooseProvider(model: CatalogModel, task: string | null, hasKey: (provider: string) => boolean): string | null {
  // Live mappings before staging ones ("meant for test purposes only"), catalogue order otherwise.
  const candidates = libraryMappings(model)
    .filter((m) => task === null || m.task === task)
    .sort((a, b) => Number(a.status === "staging") - Number(b.status === "staging"));
  const withKey = candidates.find((m) => hasKey(m.provider));
  return (withKey ?? candidates[0])?.provider ?? null;
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

export function createInferenceGateway(deps: GatewayDeps): InferenceGateway {
  const config = readGatewayConfig(deps.env);
  const limiter = new RateLimiter(config.rateLimit);
  const log = deps.log ?? ((line: string) => console.log(line));
  const secretsFromEnv = serverSecrets(deps.env);

  async function run(request: GatewayInput): Promise<GatewayOutcome> {
    const startedAt = performance.now();
    const visitorToken = visitorTokenFrom(request.headers);
    const secrets = [...secretsFromEnv, visitorToken];
    const logLine = (fields: Record<string, string | number | null | undefined>) => {
      const text = Object.entries(fields)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(" ");
      log(redactSecrets(`[inference] ${text}`, secrets));
    };
    const fail = (body: GatewayErrorBody, extra: Record<string, string | number | null | undefined> = {}): GatewayOutcome => {
      logLine({ status: body.status, code: body.code, ms: Math.round(performance.now() - startedAt), ...extra });
      return errorOutcome(body);
    };

    const taken = limiter.take(request.clientKey);
    if (!taken.ok) return fail(rateLimitError(taken.retryAfterSec, config.rateLimit).body);

    const contentType = request.headers.get("content-type") ?? "";
    if (!/^application\/json\b/i.test(contentType)) {
      return fail({ status: 415, code: "unsupported_media_type", message: "Send the request body as JSON with Content-Type: application/json." });
    }
    let raw: string;
    try {
      raw = await request.readBody(config.maxBodyBytes);
    } catch (error) {
      if (error instanceof GatewayError) return fail(error.body);
      return fail({ status: 400, code: "invalid_request", message: "The request body could not be read." });
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return fail({ status: 400, code: "invalid_json", message: "The request body is not valid JSON.", field: null });
    }
    const parsed = inferenceRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issues = describeIssues(parsed.error);
      const body: GatewayErrorBody = {
        status: 400,
        code: "invalid_request",
        message: `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
        field: issues[0]?.path ?? null,
      };
      return fail(body);
    }
    const body = parsed.data;

    // Resolve where the call goes.
    let endpointUrl: string | undefined;
    let model = body.model;
    let provider = body.provider;
    let credential: Credential;
    let requireCredential = true;
    let catalogModel: CatalogModel | null = null;
    let providerLabel: string | null;
    if (body.endpoint !== undefined) {
      let endpoint;
      try {
        endpoint = findEndpoint(deps.env, body.endpoint);
      } catch (error) {
        const message = error instanceof EndpointConfigError ? error.message : "MODELYARD_ENDPOINTS could not be read.";
        return fail({ status: 503, code: "endpoints_misconfigured", message });
      }
      if (!endpoint) {
        return fail({ status: 400, code: "unknown_endpoint", message: `No endpoint named "${body.endpoint}" is configured on this server.`, hint: "Pick a provider or endpoint from the list.", field: "endpoint" });
      }
      if (body.model !== undefined) {
        const served = endpoint.models.get(body.model);
        if (served === undefined) {
          return fail({ status: 400, code: "invalid_request", message: `The endpoint "${endpoint.name}" does not serve ${body.model}.`, field: "model" });
        }
        model = served;
        catalogModel = await deps.catalog.getModel(body.model);
      }
      endpointUrl = endpoint.url;
      const key = endpoint.keyEnv ? deps.env[endpoint.keyEnv]?.trim() : undefined;
      credential = key ? { token: key, source: "endpoint-key" } : { token: undefined, source: "none" };
      requireCredential = false;
      providerLabel = `endpoint:${endpoint.name}`;
    } else {
      // The schema holds model to the Hub's id grammar, so no URL or path reaches a lookup.
      if (model !== undefined) catalogModel = await deps.catalog.getModel(model);
      const task0 = chooseTask(body, catalogModel);
      if ((provider === undefined || provider === "auto") && catalogModel) {
        const picked = chooseProvider(catalogModel, task0, (p) => resolveCredential({ visitorToken, provider: p, env: deps.env }).source !== "none");
        if (picked) provider = picked;
      }
      credential = resolveCredential({ visitorToken, provider: provider === "auto" ? undefined : provider, env: deps.env });
      providerLabel = provider ?? "auto";
    }
    const task = body.endpoint !== undefined ? (body.task ?? (body.messages ? "conversational" : (catalogModel?.pipelineTag ?? null))) : chooseTask(body, catalogModel);
    const stream = body.stream === true;
    if (stream && task !== null && !STREAMING_TASKS.has(task)) {
      return fail({ status: 400, code: "invalid_request", message: `stream: true is only for the conversational and text-generation tasks, not "${task}".`, field: "stream" });
    }
    const parameterProblem = checkTaskParameters(task, body.parameters);
    if (parameterProblem) return fail({ status: 400, code: "invalid_request", message: parameterProblem.message, field: parameterProblem.field });

    const call: TaskCall = {
      task,
      model,
      provider: body.endpoint !== undefined ? body.provider : provider,
      endpointUrl,
      accessToken: credential.token,
      inputs: body.inputs,
      messages: body.messages,
      parameters: body.parameters,
      billTo: body.billTo,
    };

    // Deadline and disconnect both abort the upstream call.
    const controller = new AbortController();
    let deadline: DeadlineExceededError | null = null;
    let clientClosed = false;
    const timer = setTimeout(() => {
      deadline = new DeadlineExceededError(config.deadlineMs);
      controller.abort(deadline);
    }, config.deadlineMs);
    const onClientAbort = () => {
      clientClosed = true;
      controller.abort(new ClientClosedError("The client closed the request."));
    };
    if (request.signal.aborted) onClientAbort();
    else request.signal.addEventListener("abort", onClientAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onClientAbort);
    };

    const observation: UpstreamObservation = { status: null, estimatedTimeSec: null, host: null, requests: 0 };
    const gatewayFetch = createGatewayFetch({
      catalog: deps.catalog,
      override: config.override,
      signal: controller.signal,
      endpointOrigins: endpointOrigins(deps.env),
      requireCredential,
      observation,
    });
    // The scoped global-fetch hook costs every promise in the process while active, so only calls
    // that can reach the library's global fetch (default model, "auto", media downloads) enter it.
    const inScope = <T>(fn: () => Promise<T>): Promise<T> => (usesGlobalFetch(call) ? runWithGatewayFetch(gatewayFetch, fn) : fn());
    const libraryOptions = {
      retry_on_error: false,
      fetch: gatewayFetch,
      signal: controller.signal,
      ...(body.billTo ? { billTo: body.billTo } : {}),
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
      const out = classifyError(error, { observation, deadline, clientClosed, secrets, provider: provider ?? null });
      if (out.code === "model_loading") {
        out.retryAfterSec = Math.max(1, Math.ceil(observation.estimatedTimeSec ?? 30));
        out.message = `${out.message} (gave up after ${retries + 1} attempt${retries === 0 ? "" : "s"})`;
      }
      return out;
    };
    const baseLog = { task: task ?? "(none)", provider: providerLabel, model: body.model ?? "(none)", auth: credential.source, stream: stream ? 1 : 0 };

    if (!stream) {
      try {
        const result = await inScope(() => withBoundedRetry(() => callLibrary(call, libraryOptions), retryPolicy));
        const ms = Math.round(performance.now() - startedAt);
        logLine({ status: 200, ...baseLog, retries, ms });
        const headers: Record<string, string> = {
          "Cache-Control": "no-store",
          "X-Modelyard-Provider": providerLabel ?? "",
          "Server-Timing": `inference;dur=${ms}`,
        };
        if (result.kind === "blob") {
          return { kind: "blob", status: 200, blob: result.blob, headers: { ...headers, "Content-Type": result.blob.type || "application/octet-stream" } };
        }
        return {
          kind: "json",
          status: 200,
          body: JSON.stringify({ output: result.data, provider: providerLabel, model: body.model ?? null, task, timing: { totalMs: ms } }),
          headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
        };
      } catch (error) {
        const out = classify(error);
        return fail(out, { ...baseLog, retries });
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
      return fail(classify(error), { ...baseLog, retries });
    }
    const streamOptions: StreamPumpOptions = {
      first: started.first,
      rest: started.gen,
      startedAt,
      provider: providerLabel,
      model: body.model ?? null,
      toError: (error) => {
        const out = classify(error);
        const e: { status: number; code: string; message: string; hint?: string } = { status: out.status, code: out.code, message: out.message };
        if (out.hint) e.hint = out.hint;
        return e;
      },
      clientGone: () => request.signal.aborted,
      abortUpstream: () => {
        if (!controller.signal.aborted) {
          clientClosed = true;
          controller.abort(new ClientClosedError("The client closed the stream."));
        }
      },
      onEnd: (s) => {
        cleanup();
        logLine({
          status: s.outcome === "cancelled" ? 499 : 200,
          ...baseLog,
          outcome: s.outcome,
          code: s.errorCode,
          tokens: s.tokens,
          ttft_ms: s.ttftMs === null ? null : Math.round(s.ttftMs),
          ms: Math.round(s.totalMs),
          retries,
        });
      },
    };
    return { kind: "stream", status: 200, headers: { ...SSE_HEADERS, "X-Modelyard-Provider": providerLabel ?? "" }, stream: streamOptions };
  }

  async function handle(request: Request, opts: HandleOptions): Promise<Response> {
    const outcome = await run({
      headers: request.headers,
      readBody: (maxBytes) => readBodyLimited(request, maxBytes),
      signal: request.signal,
      clientKey: opts.clientKey,
    });
    return outcomeToResponse(outcome);
  }

  return { handle, run, config };
}

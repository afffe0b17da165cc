// Inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// A local node:http server that answers, on loopback, the requests @huggingface/inference 3.13.1
// sends to the Hugging Face router, to provider hosts and to the Hub, using the
// MODELYARD_UPSTREAM_OVERRIDE scheme:  https://<host><path>?<q>  ->  <simulator>/<host><path>?<q>.
// Answers are deterministic functions of the request, with the real wire shapes (paths, payloads,
// JSON bodies, SSE framing, binary media). Faults can be scripted per request, in process or over
// HTTP through /__simulator/*. See README.md beside this file for what is covered.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { HUB_FIXTURE_MODELS, type HubFixtureModel } from "./hub-fixture.ts";
import {
  audioDurationSeconds,
  makeMp4,
  makePng,
  makeWav,
  seedBytes,
  sniffMedia,
  type MediaKind,
} from "./media.ts";

// ---------------------------------------------------------------------------------------------
// Public types and schemas (the control API validates against the same schemas)

const timesSchema = z.union([z.number().int().positive(), z.literal("forever")]);

export const errorStyleSchema = z.enum(["hf-inference", "openai", "message", "replicate", "fal", "text", "html"]);
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
  // Replicate answers `Prefer: wait` with a prediction that is still "processing" (the wait timed out).
  z.strictObject({ kind: z.literal("replicate-pending"), times: timesSchema.optional() }),
]);
export type Fault = z.infer<typeof faultSchema>;

const scriptFaultBodySchema = z.strictObject({ match: faultMatchSchema, fault: faultSchema });

const hubModelSchema = z.strictObject({
  id: z.string().min(1),
  pipeline_tag: z.string().min(1),
  tags: z.array(z.string()),
  inferenceProviderMapping: z.record(
    z.string(),
    z.strictObject({
      status: z.enum(["live", "staging"]),
      providerId: z.string().min(1),
      task: z.string().min(1),
      adapter: z.string().optional(),
      adapterWeightsPath: z.string().optional(),
    }),
  ),
  // Live-details tests: the repo's README (served at /<id>/raw/<rev>/README.md) and extra fields of
  // the full /api/models/<id> record (sha, siblings, config, cardData, or deliberately malformed ones).
  readme: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});

export type TokenKind = "hf-token" | "provider-key" | "missing" | "none";
export type Service = "router" | "provider" | "hub" | "asset" | "unknown";

export interface RecordedRequest {
  seq: number;
  method: string;
  /** Upstream host the client meant, e.g. "router.huggingface.co". */
  host: string;
  /** Upstream path without the query, e.g. "/together/v1/chat/completions". */
  path: string;
  /** "" or "?..." */
  query: string;
  /** The URL the client meant, rebuilt: https://<host><path><query>. */
  originalUrl: string;
  service: Service;
  provider: string | null;
  model: string | null;
  /** Lower-cased header names; Authorization is replaced by "<scheme> REDACTED". */
  headers: Record<string, string>;
  authorization: { scheme: string | null; tokenKind: TokenKind };
  contentType: string | null;
  bodySize: number;
  /** UTF-8 body when it is text (JSON, form, plain), null for binary bodies. */
  bodyText: string | null;
  /** Parsed JSON body, undefined when the body is not JSON. */
  bodyJson: unknown;
  /** Sniffed media kind for binary bodies. */
  bodyMedia: MediaKind | null;
  faultApplied: Fault["kind"] | null;
  responseStatus: number | null;
  dropped: boolean;
}

export interface ProviderSimulatorOptions {
  port?: number;
  /** Loopback address to bind; defaults to 127.0.0.1. */
  host?: string;
  /**
   * How media URLs in answers (fal CDN, replicate.delivery) are written. "override" (default) points
   * them straight at the simulator so a client's plain fetch reaches them; "real-host" writes the
   * real https host, as the providers do, for clients that rewrite every URL themselves.
   */
  assetUrls?: "override" | "real-host";
  /** Delay between streamed chat chunks, in ms (default 0). */
  tokenDelayMs?: number;
  /** How many fal queue status polls answer IN_PROGRESS before COMPLETED (default 0). */
  falQueueInProgressPolls?: number;
  /** Hub models to serve instead of the bundled fixture. */
  hubModels?: HubFixtureModel[];
}

export interface ProviderSimulator {
  url: string;
  port: number;
  requests: RecordedRequest[];
  scriptFault(match: FaultMatch, fault: Fault): void;
  addHubModel(model: HubFixtureModel): void;
  reset(): void;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Hosts and providers (as in @huggingface/inference 3.13.1 src/providers/*.ts)

export const ROUTER_HOST = "router.huggingface.co";
export const HUB_HOST = "huggingface.co";

export const PROVIDER_HOSTS: Record<string, string> = {
  "api.together.xyz": "together",
  "api.groq.com": "groq",
  "api.fireworks.ai": "fireworks-ai",
  "api.studio.nebius.ai": "nebius",
  "api.sambanova.ai": "sambanova",
  "api.cerebras.ai": "cerebras",
  "api.novita.ai": "novita",
  "api.cohere.com": "cohere",
  "api.hyperbolic.xyz": "hyperbolic",
  "inference.api.nscale.com": "nscale",
  "api.featherless.ai": "featherless-ai",
  "oai.endpoints.kepler.ai.cloud.ovh.net": "ovhcloud",
  "api.openai.com": "openai",
  "api.replicate.com": "replicate",
  "fal.run": "fal-ai",
  "queue.fal.run": "fal-ai",
};

const ASSET_HOSTS = new Set(["v3.fal.media", "fal.media", "replicate.delivery"]);

const OPENAI_STYLE_PROVIDERS = new Set([
  "together",
  "groq",
  "fireworks-ai",
  "nebius",
  "sambanova",
  "cerebras",
  "novita",
  "cohere",
  "hyperbolic",
  "nscale",
  "featherless-ai",
  "ovhcloud",
  "openai",
]);

/** Providers whose chat answers carry no system_fingerprint (3.13.1 tolerates that for Together and Nebius). */
const NO_FINGERPRINT = new Set(["together", "nebius"]);

function defaultErrorStyle(provider: string | null): ErrorStyle {
  if (provider === "replicate") return "replicate";
  if (provider === "fal-ai") return "fal";
  if (provider && OPENAI_STYLE_PROVIDERS.has(provider)) return "openai";
  return "hf-inference";
}

// ---------------------------------------------------------------------------------------------
// Small helpers

type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function shortHash(text: string, length = 12): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** A number in [0, 1) derived from the text. */
function unitFromText(text: string): number {
  return (seedBytes(text).readUInt32BE(0) % 1_000_000) / 1_000_000;
}

function round4(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function isTextual(contentType: string | null): boolean {
  if (!contentType) return false;
  return /json|text\/|x-www-form-urlencoded|xml/.test(contentType);
}

function tokenKindOf(authorization: string | undefined): { scheme: string | null; tokenKind: TokenKind } {
  if (!authorization) return { scheme: null, tokenKind: "none" };
  const [scheme, ...rest] = authorization.trim().split(/\s+/);
  const token = rest.join(" ");
  if (!token || token === "undefined" || token === "null") return { scheme: scheme ?? null, tokenKind: "missing" };
  return { scheme: scheme ?? null, tokenKind: token.startsWith("hf_") ? "hf-token" : "provider-key" };
}

// ---------------------------------------------------------------------------------------------
// Error bodies in each provider's style

interface ErrorReply {
  status: number;
  contentType: string;
  body: string;
}

function openAiErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function errorReply(style: ErrorStyle, status: number, message: string): ErrorReply {
  switch (style) {
    case "hf-inference":
      return { status, contentType: "application/json", body: JSON.stringify({ error: message }) };
    case "openai":
      return {
        status,
        contentType: "application/json",
        body: JSON.stringify({ error: { message, type: openAiErrorType(status), param: null, code: status === 401 ? "invalid_api_key" : null } }),
      };
    case "message":
      return { status, contentType: "application/json", body: JSON.stringify({ message, code: status }) };
    case "replicate":
      return {
        status,
        contentType: "application/problem+json",
        body: JSON.stringify({ title: httpTitle(status), detail: message, status }),
      };
    case "fal":
      return { status, contentType: "application/json", body: JSON.stringify({ detail: message }) };
    case "text":
      return { status, contentType: "text/plain; charset=utf-8", body: message };
    case "html":
      return { status, contentType: "text/html; charset=utf-8", body: `<html><head><title>${status} ${httpTitle(status)}</title></head><body><h1>${message}</h1></body></html>` };
  }
}

function httpTitle(status: number): string {
  const titles: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthenticated",
    402: "Payment Required",
    403: "Forbidden",
    404: "Not Found",
    422: "Input validation failed",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
  };
  return titles[status] ?? "Error";
}

function defaultFaultMessage(status: number): string {
  if (status === 401) return "Invalid credentials (simulated fault)";
  if (status === 404) return "Not found (simulated fault)";
  if (status === 429) return "Rate limit reached (simulated fault)";
  if (status >= 500) return "Internal server error (simulated fault)";
  return "Bad request (simulated fault)";
}

// ---------------------------------------------------------------------------------------------
// Deterministic task answers

const POSITIVE = new Set(["love", "like", "good", "great", "happy", "excellent", "wonderful", "sunny", "best", "nice"]);
const NEGATIVE = new Set(["hate", "bad", "awful", "terrible", "sad", "worst", "horrible", "angry", "poor"]);
const IMAGE_LABELS = ["tabby cat", "golden retriever", "sports car", "sunflower", "lighthouse", "espresso", "mountain bike", "red fox"];

function textClassification(text: string): Array<{ label: string; score: number }> {
  let balance = 0;
  for (const w of words(text.toLowerCase().replace(/[^a-z\s]/g, " "))) {
    if (POSITIVE.has(w)) balance++;
    if (NEGATIVE.has(w)) balance--;
  }
  const positive = balance === 0 ? 0.5 + (unitFromText(text) - 0.5) * 0.2 : balance > 0 ? 0.9 + unitFromText(text) * 0.09 : 0.01 + unitFromText(text) * 0.09;
  const pos = round4(positive);
  const neg = round4(1 - positive);
  return pos >= neg ? [{ label: "POSITIVE", score: pos }, { label: "NEGATIVE", score: neg }] : [{ label: "NEGATIVE", score: neg }, { label: "POSITIVE", score: pos }];
}

function tokenClassification(text: string): Array<{ entity_group: string; score: number; word: string; start: number; end: number }> {
  const groups = ["PER", "ORG", "LOC", "MISC"];
  const out: Array<{ entity_group: string; score: number; word: string; start: number; end: number }> = [];
  for (const m of text.matchAll(/\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*/g)) {
    const word = m[0];
    const start = m.index;
    out.push({
      entity_group: groups[(seedBytes(word)[0] ?? 0) % groups.length] ?? "MISC",
      score: round4(0.85 + unitFromText(word) * 0.14),
      word,
      start,
      end: start + word.length,
    });
  }
  return out;
}

const MASK_TOKENS = ["[MASK]", "<mask>"];
const FILLERS = ["paris", "life", "music", "science", "home"];

function fillMask(text: string): Array<{ score: number; token: number; token_str: string; sequence: string }> | null {
  const mask = MASK_TOKENS.find((t) => text.includes(t));
  if (!mask) return null;
  let remaining = 1;
  return FILLERS.map((filler, i) => {
    const score = round4(i === FILLERS.length - 1 ? remaining * 0.5 : remaining * 0.5);
    remaining -= score;
    return {
      score,
      token: 1000 + (seedBytes(filler)[0] ?? 0) * 10 + i,
      token_str: filler,
      sequence: text.replace(mask, filler).replace(/\s+/g, " ").toLowerCase(),
    };
  });
}

function questionAnswering(question: string, context: string): { answer: string; score: number; start: number; end: number } {
  const questionWords = new Set(words(question.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, " ")));
  let best = { word: "", start: 0 };
  for (const m of context.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (questionWords.has(w.toLowerCase())) continue;
    if (w.length > best.word.length) best = { word: w, start: m.index };
  }
  return { answer: best.word, score: round4(0.5 + unitFromText(question + context) * 0.49), start: best.start, end: best.start + best.word.length };
}

function summarize(text: string): string {
  const firstSentence = text.split(/(?<=[.!?])\s+/)[0] ?? text;
  const w = words(firstSentence);
  return w.length > 30 ? `${w.slice(0, 30).join(" ")}...` : firstSentence.trim();
}

function embedding(text: string, dims = 32): number[] {
  const values: number[] = [];
  let seed = seedBytes(text);
  while (values.length < dims) {
    for (let i = 0; i + 1 < seed.length && values.length < dims; i += 2) {
      values.push(((seed.readUInt16BE(i) / 65535) * 2 - 1));
    }
    seed = seedBytes(seed.toString("hex"));
  }
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0)) || 1;
  return values.map((v) => round4(v / norm));
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return round4(dot);
}

function imageClassification(bytes: Buffer): Array<{ label: string; score: number }> {
  const hash = seedBytes(bytes.toString("base64"));
  const start = (hash[0] ?? 0) % IMAGE_LABELS.length;
  let remaining = 1;
  const out: Array<{ label: string; score: number }> = [];
  for (let i = 0; i < 5; i++) {
    const score = round4(remaining * 0.6);
    remaining -= score;
    out.push({ label: IMAGE_LABELS[(start + i) % IMAGE_LABELS.length] ?? "object", score });
  }
  return out;
}

function transcript(audio: Buffer): string {
  const kind = sniffMedia(audio);
  const seconds = audioDurationSeconds(audio);
  const duration = seconds === null ? `${audio.length} bytes` : `${seconds.toFixed(2)} seconds`;
  return `Simulated transcript of ${duration} of ${kind} audio (${shortHash(audio.toString("base64"), 8)}).`;
}

const SOUNDFILE_ERROR =
  "Soundfile is either not in the correct format or is malformed. Ensure that the soundfile has a valid audio file extension (e.g. wav, flac or mp3) and is not corrupted. If reading from a remote URL, ensure that the URL is the full address to **download** the audio file.";

/** Text of a chat message content: a string, or OpenAI content parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isRecord(part) && part["type"] === "text" ? str(part["text"]) ?? "" : ""))
      .filter((t) => t.length > 0)
      .join(" ");
  }
  return "";
}

interface ChatPlan {
  id: string;
  model: string;
  tokens: string[];
  promptTokens: number;
  finishReason: "stop" | "length";
  fingerprint: string | undefined;
}

function planChat(provider: string, model: string, body: Record<string, unknown>, messages: unknown[]): ChatPlan {
  const texts = messages.map((m) => (isRecord(m) ? contentText(m["content"]) : ""));
  const lastUser = [...messages].reverse().find((m) => isRecord(m) && m["role"] === "user");
  const question = isRecord(lastUser) ? contentText(lastUser["content"]) : "";
  const reply = `Simulated ${provider} reply from ${model}: you said "${question.length > 200 ? `${question.slice(0, 200)}...` : question}".`;
  let tokens = reply.split(/(?<=\s)/);
  const maxTokens = typeof body["max_tokens"] === "number" ? body["max_tokens"] : typeof body["max_completion_tokens"] === "number" ? body["max_completion_tokens"] : undefined;
  let finishReason: "stop" | "length" = "stop";
  if (maxTokens !== undefined && maxTokens >= 0 && tokens.length > maxTokens) {
    tokens = tokens.slice(0, maxTokens);
    finishReason = "length";
  }
  return {
    id: `chatcmpl-sim-${shortHash(JSON.stringify(body), 24)}`,
    model,
    tokens,
    promptTokens: texts.reduce((n, t) => n + words(t).length, 0) + messages.length * 3,
    finishReason,
    fingerprint: NO_FINGERPRINT.has(provider) ? undefined : `fp_sim_${shortHash(provider, 8)}`,
  };
}

// ---------------------------------------------------------------------------------------------
// The server

interface ActiveFault {
  match: FaultMatch;
  fault: Fault;
  remaining: number | "forever";
}

interface Upstream {
  host: string;
  path: string;
  query: string;
  searchParams: URLSearchParams;
  service: Service;
  provider: string | null;
  /** Provider-relative route without a leading slash, e.g. "v1/chat/completions" or "fal-ai/flux/dev". */
  route: string;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  up: Upstream;
  body: Buffer;
  json: unknown;
  record: RecordedRequest;
  fault: Fault | null;
}

interface ReplicatePrediction {
  id: string;
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  task: string;
  output: string | string[] | null;
  polls: number;
  createdAt: string;
}

interface FalQueueItem {
  requestId: string;
  appPath: string;
  polls: number;
  result: Json;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;

export async function startProviderSimulator(opts: ProviderSimulatorOptions = {}): Promise<ProviderSimulator> {
  const bindHost = opts.host ?? "127.0.0.1";
  const requests: RecordedRequest[] = [];
  let faults: ActiveFault[] = [];
  let seq = 0;
  let hubModels = new Map<string, HubFixtureModel>();
  const assets = new Map<string, { contentType: string; bytes: Buffer }>();
  const predictions = new Map<string, ReplicatePrediction>();
  const falQueue = new Map<string, FalQueueItem>();
  let selfUrl = "";

  const loadHub = (): void => {
    hubModels = new Map((opts.hubModels ?? HUB_FIXTURE_MODELS).map((m) => [m.id, structuredClone(m)]));
  };
  loadHub();

  const reset = (): void => {
    requests.length = 0;
    faults = [];
    seq = 0;
    predictions.clear();
    falQueue.clear();
    assets.clear();
    loadHub();
  };

  const scriptFault = (match: FaultMatch, fault: Fault): void => {
    faults.push({ match: faultMatchSchema.parse(match), fault: faultSchema.parse(fault), remaining: fault.times ?? 1 });
  };

  const takeFault = (record: RecordedRequest): Fault | null => {
    for (const active of faults) {
      const m = active.match;
      if (m.host && !record.host.includes(m.host)) continue;
      if (m.path && !`${record.path}${record.query}`.includes(m.path)) continue;
      if (m.model && record.model !== m.model) continue;
      if (m.provider && record.provider !== m.provider) continue;
      if (m.method && record.method.toUpperCase() !== m.method.toUpperCase()) continue;
      if (active.remaining !== "forever") {
        active.remaining -= 1;
        if (active.remaining <= 0) faults = faults.filter((f) => f !== active);
      }
      return active.fault;
    }
    return null;
  };

  const assetUrl = (host: string, path: string): string =>
    opts.assetUrls === "real-host" ? `https://${host}${path}` : `${selfUrl}/${host}${path}`;

  const storeAsset = (host: string, path: string, contentType: string, bytes: Buffer): string => {
    assets.set(`${host}${path}`, { contentType, bytes });
    return assetUrl(host, path);
  };

  /** Provider id -> task, from the Hub fixture (how the simulator knows what a replicate/fal model does). */
  const providerTask = (provider: string, providerId: string): string | null => {
    for (const model of hubModels.values()) {
      const mapping = model.inferenceProviderMapping[provider];
      if (!mapping) continue;
      if (mapping.providerId === providerId) return mapping.task;
      if (provider === "replicate" && mapping.providerId.includes(":") && providerId.includes(":") && mapping.providerId.split(":")[1] === providerId.split(":")[1]) return mapping.task;
      if (provider === "replicate" && !providerId.includes(":") && mapping.providerId.split(":")[1] === providerId) return mapping.task;
    }
    return null;
  };

  const hfTask = (modelId: string): string | null => {
    const model = hubModels.get(modelId);
    if (!model) return null;
    return model.inferenceProviderMapping["hf-inference"]?.task ?? model.pipeline_tag;
  };

  // -------------------------------------------------------------------------------------------
  // Response helpers

  const send = (ctx: Ctx, status: number, contentType: string, payload: string | Buffer, extraHeaders: Record<string, string> = {}): void => {
    const bytes = typeof payload === "string" ? Buffer.from(payload) : payload;
    if (dropWhen(ctx.fault) === "mid-body") {
      ctx.res.writeHead(status, { "Content-Type": contentType, "Content-Length": String(bytes.length), ...extraHeaders });
      ctx.res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))));
      ctx.record.dropped = true;
      setTimeout(() => ctx.res.socket?.destroy(), 20);
      return;
    }
    ctx.res.writeHead(status, { "Content-Type": contentType, "Content-Length": String(bytes.length), ...extraHeaders });
    ctx.res.end(bytes);
  };

  const sendJson = (ctx: Ctx, status: number, body: unknown, contentType = "application/json"): void => {
    send(ctx, status, contentType, JSON.stringify(body));
  };

  const sendError = (ctx: Ctx, status: number, message: string, style?: ErrorStyle): void => {
    const reply = errorReply(style ?? defaultErrorStyle(ctx.up.provider), status, message);
    send(ctx, reply.status, reply.contentType, reply.body);
  };

  // -------------------------------------------------------------------------------------------
  // Auth, as the real hosts check it

  const checkAuth = (ctx: Ctx): boolean => {
    const { tokenKind, scheme } = ctx.record.authorization;
    if (ctx.up.service === "router") {
      if (tokenKind !== "hf-token") {
        sendError(ctx, 401, "Invalid credentials in Authorization header", "hf-inference");
        return false;
      }
      return true;
    }
    if (ctx.up.service === "provider") {
      if (tokenKind === "provider-key" && (ctx.up.provider !== "fal-ai" || scheme === "Key")) return true;
      const message =
        ctx.up.provider === "fal-ai"
          ? "Authentication is required to access this application. Send `Authorization: Key <key>`."
          : tokenKind === "hf-token"
            ? "Invalid API key provided: a Hugging Face token cannot be used directly with this provider."
            : "Invalid API key provided.";
      sendError(ctx, 401, message);
      return false;
    }
    return true;
  };

  // -------------------------------------------------------------------------------------------
  // OpenAI-compatible chat, completions, embeddings, images

  const handleChat = async (ctx: Ctx, provider: string, modelOverride?: string): Promise<void> => {
    const body = ctx.json;
    if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
    const model = modelOverride ?? str(body["model"]);
    if (!model) return sendError(ctx, 400, "you must provide a model parameter");
    const messages = body["messages"];
    if (!Array.isArray(messages) || messages.length === 0 || !messages.every((m) => isRecord(m) && typeof m["role"] === "string")) {
      return sendError(ctx, provider === "hf-inference" ? 422 : 400, "messages: expected a non-empty array of {role, content}");
    }
    const plan = planChat(provider, model, body, messages);
    const completionTokens = plan.tokens.length;
    const usage = { prompt_tokens: plan.promptTokens, completion_tokens: completionTokens, total_tokens: plan.promptTokens + completionTokens };
    const created = nowSeconds();
    const fault = ctx.fault;
    const firstByteDelay = fault?.kind === "slow" ? fault.firstByteDelayMs ?? 0 : 0;
    await sleep(firstByteDelay);

    if (body["stream"] !== true) {
      if (fault?.kind === "slow") await sleep(fault.tokenDelayMs * completionTokens);
      const answer: Record<string, Json | undefined> = {
        id: plan.id,
        object: "chat.completion",
        created,
        model: plan.model,
        ...(plan.fingerprint ? { system_fingerprint: plan.fingerprint } : {}),
        choices: [{ index: 0, message: { role: "assistant", content: plan.tokens.join("") }, logprobs: null, finish_reason: plan.finishReason }],
        usage,
      };
      return sendJson(ctx, 200, answer);
    }

    if (fault?.kind === "wrong-content-type") {
      const answer = { id: plan.id, object: "chat.completion", created, model: plan.model, choices: [{ index: 0, message: { role: "assistant", content: plan.tokens.join("") }, finish_reason: plan.finishReason }], usage };
      return send(ctx, 200, fault.contentType ?? "application/json", JSON.stringify(answer));
    }

    const chunk = (delta: Record<string, Json>, finish: string | null, extra: Record<string, Json> = {}): string =>
      `data: ${JSON.stringify({
        id: plan.id,
        object: "chat.completion.chunk",
        created,
        model: plan.model,
        ...(plan.fingerprint ? { system_fingerprint: plan.fingerprint } : {}),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...extra,
      })}\n\n`;

    const { res } = ctx;
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive" });
    res.flushHeaders();
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    const delay = fault?.kind === "slow" ? fault.tokenDelayMs : opts.tokenDelayMs ?? 0;
    const write = (text: string): boolean => {
      if (closed) return false;
      res.write(text);
      return true;
    };
    if (!write(chunk({ role: "assistant", content: "" }, null))) return;
    for (let i = 0; i < plan.tokens.length; i++) {
      if (fault?.kind === "mid-stream-error" && i === (fault.afterChunks ?? 1)) {
        const message = fault.message ?? "Simulated failure while generating";
        const errorEvent = provider === "hf-inference" ? { error: message, error_type: "generation" } : { error: { message, type: "server_error", code: null } };
        write(`data: ${JSON.stringify(errorEvent)}\n\n`);
        res.end();
        return;
      }
      if (fault?.kind === "drop" && dropWhen(fault) === "mid-body" && i === (fault.afterChunks ?? 1)) {
        ctx.record.dropped = true;
        res.socket?.destroy();
        return;
      }
      await sleep(delay);
      if (!write(chunk({ content: plan.tokens[i] ?? "" }, null))) return;
    }
    write(chunk({}, plan.finishReason, { usage }));
    write("data: [DONE]\n\n");
    res.end();
  };

  const handleCompletion = (ctx: Ctx): void => {
    const body = ctx.json;
    if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
    const prompt = str(body["prompt"]) ?? "";
    const model = str(body["model"]) ?? "unknown";
    const text = ` and so the simulated ${ctx.up.provider ?? "provider"} completion continues (${shortHash(prompt, 6)}).`;
    const completionTokens = words(text).length;
    const promptTokens = words(prompt).length;
    sendJson(ctx, 200, {
      id: `cmpl-sim-${shortHash(JSON.stringify(body), 24)}`,
      object: "text_completion",
      created: nowSeconds(),
      model,
      choices: [{ index: 0, text, logprobs: null, finish_reason: "stop", seed: 42 }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  };

  const handleEmbeddings = (ctx: Ctx): void => {
    const body = ctx.json;
    if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
    const raw = body["input"] ?? body["inputs"];
    const inputs = typeof raw === "string" ? [raw] : Array.isArray(raw) && raw.every((x) => typeof x === "string") ? raw : null;
    if (!inputs) return sendError(ctx, 400, "input: expected a string or an array of strings");
    sendJson(ctx, 200, {
      object: "list",
      model: str(body["model"]) ?? "unknown",
      data: inputs.map((text, index) => ({ object: "embedding", index, embedding: embedding(text) })),
      usage: { prompt_tokens: inputs.reduce((n, t) => n + words(t).length, 0), total_tokens: inputs.reduce((n, t) => n + words(t).length, 0) },
    });
  };

  const handleImageGeneration = (ctx: Ctx, provider: string): void => {
    const body = ctx.json;
    if (!isRecord(body)) return sendError(ctx, 400, "Request body must be a JSON object.");
    const prompt = str(body["prompt"]);
    if (!prompt) return sendError(ctx, 400, "prompt: field required");
    const b64 = makePng(prompt).toString("base64");
    if (provider === "hyperbolic") return sendJson(ctx, 200, { images: [{ index: 0, image: b64 }] });
    sendJson(ctx, 200, { id: `img-sim-${shortHash(prompt)}`, model: str(body["model"]) ?? "unknown", object: "list", data: [{ index: 0, b64_json: b64 }] });
  };

  const handleOpenAiCompatible = async (ctx: Ctx, provider: string): Promise<void> => {
    const route = ctx.up.route;
    if (ctx.req.method !== "POST") return sendError(ctx, 405, `Method ${ctx.req.method ?? ""} not allowed`);
    if (route.endsWith("chat/completions")) return handleChat(ctx, provider);
    if (route.endsWith("v1/completions")) return handleCompletion(ctx);
    if (route.endsWith("v1/embeddings")) return handleEmbeddings(ctx);
    if (route.endsWith("v1/images/generations")) return handleImageGeneration(ctx, provider);
    sendError(ctx, 404, `Unknown route /${route} for ${provider}`);
  };

  // -------------------------------------------------------------------------------------------
  // hf-inference

  const binaryInput = (ctx: Ctx): Buffer | null => {
    if (isRecord(ctx.json)) {
      const inputs = ctx.json["inputs"];
      if (typeof inputs === "string") {
        const decoded = Buffer.from(inputs.replace(/^data:[^,]*,/, ""), "base64");
        return decoded.length > 0 ? decoded : null;
      }
      return null;
    }
    return ctx.body.length > 0 ? ctx.body : null;
  };

  const handleHfInference = async (ctx: Ctx): Promise<void> => {
    const route = ctx.up.route; // models/<id>[/pipeline/<task>][/v1/chat/completions]
    if (!route.startsWith("models/")) return sendError(ctx, 404, `Unknown route /${route}`);
    let rest = route.slice("models/".length);
    if (/\/v1\/chat\/completions$/.test(rest) || /\/chat\/completions$/.test(rest)) {
      rest = rest.replace(/\/(v1\/)?chat\/completions$/, "");
      if (!hubModels.has(rest)) return sendError(ctx, 404, `Model ${rest} does not exist`);
      return handleChat(ctx, "hf-inference", rest);
    }
    let task: string | null = null;
    const pipelineAt = rest.indexOf("/pipeline/");
    if (pipelineAt >= 0) {
      task = rest.slice(pipelineAt + "/pipeline/".length);
      rest = rest.slice(0, pipelineAt);
    }
    const modelId = rest;
    ctx.record.model = modelId;
    if (!hubModels.has(modelId)) return sendError(ctx, 404, `Model ${modelId} does not exist`);
    task = task ?? hfTask(modelId);
    if (ctx.req.method !== "POST") return sendError(ctx, 405, "Method not allowed, use POST");
    const body = isRecord(ctx.json) ? ctx.json : null;
    const inputs = body ? body["inputs"] : undefined;
    const textInputs = typeof inputs === "string" ? inputs : null;
    const needText = (): boolean => {
      if (textInputs === null) {
        sendError(ctx, 400, "inputs: expected a string");
        return false;
      }
      return true;
    };
    await sleep(ctx.fault?.kind === "slow" ? ctx.fault.firstByteDelayMs ?? ctx.fault.tokenDelayMs : 0);
    switch (task) {
      case "text-classification":
        if (Array.isArray(inputs) && inputs.every((x) => typeof x === "string")) return sendJson(ctx, 200, inputs.map((t) => textClassification(t)));
        if (!needText()) return;
        return sendJson(ctx, 200, [textClassification(textInputs ?? "")]);
      case "token-classification":
        if (!needText()) return;
        return sendJson(ctx, 200, tokenClassification(textInputs ?? ""));
      case "fill-mask": {
        if (!needText()) return;
        const out = fillMask(textInputs ?? "");
        if (!out) return sendError(ctx, 400, "No mask_token ([MASK]) found on the input");
        return sendJson(ctx, 200, out);
      }
      case "question-answering": {
        const q = isRecord(inputs) ? str(inputs["question"]) : undefined;
        const c = isRecord(inputs) ? str(inputs["context"]) : undefined;
        if (q === undefined || c === undefined) return sendError(ctx, 400, "inputs: expected {question: string, context: string}");
        return sendJson(ctx, 200, questionAnswering(q, c));
      }
      case "summarization":
        if (!needText()) return;
        return sendJson(ctx, 200, [{ summary_text: summarize(textInputs ?? "") }]);
      case "translation":
        if (!needText()) return;
        return sendJson(ctx, 200, [{ translation_text: `[simulated translation] ${textInputs ?? ""}` }]);
      case "text-generation":
        if (!needText()) return;
        return sendJson(ctx, 200, [{ generated_text: `${textInputs ?? ""} and the simulated model continues (${shortHash(textInputs ?? "", 6)}).` }]);
      case "feature-extraction": {
        if (Array.isArray(inputs) && inputs.every((x) => typeof x === "string")) return sendJson(ctx, 200, inputs.map((t) => embedding(t)));
        if (!needText()) return;
        return sendJson(ctx, 200, embedding(textInputs ?? ""));
      }
      case "sentence-similarity": {
        const source = isRecord(inputs) ? str(inputs["source_sentence"]) : undefined;
        const sentences = isRecord(inputs) ? inputs["sentences"] : undefined;
        if (source === undefined || !Array.isArray(sentences) || !sentences.every((s) => typeof s === "string")) {
          return sendError(ctx, 400, "inputs: expected {source_sentence: string, sentences: string[]}");
        }
        const base = embedding(source);
        return sendJson(ctx, 200, sentences.map((s) => cosine(base, embedding(s))));
      }
      case "image-classification": {
        const image = binaryInput(ctx);
        const kind = image ? sniffMedia(image) : "unknown";
        if (!image || !["png", "jpeg", "gif", "webp"].includes(kind)) return sendError(ctx, 400, "cannot identify image file");
        return sendJson(ctx, 200, imageClassification(image));
      }
      case "automatic-speech-recognition": {
        const audio = binaryInput(ctx);
        const kind = audio ? sniffMedia(audio) : "unknown";
        if (!audio || !["wav", "flac", "mp3", "ogg"].includes(kind)) return sendError(ctx, 400, SOUNDFILE_ERROR);
        return sendJson(ctx, 200, { text: transcript(audio) });
      }
      case "text-to-image": {
        if (!needText()) return;
        return send(ctx, 200, "image/png", makePng(textInputs ?? ""));
      }
      case "text-to-speech":
      case "text-to-audio": {
        const text = textInputs ?? (body ? str(body["text"]) : undefined);
        if (text === undefined) return sendError(ctx, 400, "inputs: expected a string");
        return send(ctx, 200, "audio/wav", makeWav(text));
      }
      default:
        return sendError(ctx, 400, `The simulator does not implement hf-inference task ${task ?? "(unknown)"} for ${modelId}`);
    }
  };

  // -------------------------------------------------------------------------------------------
  // Replicate

  const replicateOutput = (task: string, id: string, prompt: string): string | string[] => {
    if (task === "text-to-image") return [storeAsset("replicate.delivery", `/xezq/${id}/out-0.png`, "image/png", makePng(prompt))];
    if (task === "text-to-video") return storeAsset("replicate.delivery", `/xezq/${id}/output.mp4`, "video/mp4", makeMp4(prompt));
    return storeAsset("replicate.delivery", `/xezq/${id}/output.wav`, "audio/wav", makeWav(prompt));
  };

  const predictionJson = (p: ReplicatePrediction, status: string): Record<string, Json> => {
    const apiBase = "https://api.replicate.com/v1/predictions";
    return {
      id: p.id,
      model: p.model,
      version: p.version ?? "sim-latest",
      input: p.input as Record<string, Json>,
      logs: "",
      output: status === "succeeded" ? p.output : null,
      data_removed: false,
      error: null,
      status,
      created_at: p.createdAt,
      ...(status === "succeeded" ? { started_at: p.createdAt, completed_at: p.createdAt, metrics: { predict_time: 0.42 } } : {}),
      urls: { cancel: `${apiBase}/${p.id}/cancel`, get: `${apiBase}/${p.id}`, web: `https://replicate.com/p/${p.id}` },
    };
  };

  const handleReplicate = (ctx: Ctx): void => {
    const route = ctx.up.route;
    const getMatch = /^v1\/predictions\/([^/]+)$/.exec(route);
    if (ctx.req.method === "GET" && getMatch) {
      const p = predictions.get(getMatch[1] ?? "");
      if (!p) return sendError(ctx, 404, "The requested resource could not be found.");
      p.polls += 1;
      return sendJson(ctx, 200, predictionJson(p, p.polls >= 2 ? "succeeded" : "processing"));
    }
    if (ctx.req.method !== "POST") return sendError(ctx, 405, "Method not allowed");
    const body = ctx.json;
    if (!isRecord(body) || !isRecord(body["input"])) return sendError(ctx, 422, "input: Additional property or missing required field 'input'");
    const input = body["input"];
    let model: string;
    let version: string | null = null;
    const modelMatch = /^v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(route);
    if (modelMatch) {
      model = modelMatch[1] ?? "";
    } else if (route === "v1/predictions") {
      version = str(body["version"]) ?? null;
      if (!version) return sendError(ctx, 422, "version is required");
      model = version;
    } else {
      return sendError(ctx, 404, "The requested resource could not be found.");
    }
    ctx.record.model = model;
    const task = providerTask("replicate", version ? `x:${version}` : model);
    if (!task) return sendError(ctx, 404, `Model ${model} not found.`);
    const prompt = str(input["prompt"]) ?? str(input["text"]);
    if (!prompt) return sendError(ctx, 422, "input.prompt: field required");
    const id = `sim${shortHash(`${seq}:${JSON.stringify(body)}`, 20)}`;
    const prediction: ReplicatePrediction = {
      id,
      model: version ? "simulated/by-version" : model,
      version,
      input,
      task,
      output: replicateOutput(task, id, prompt),
      polls: 0,
      createdAt: new Date().toISOString(),
    };
    predictions.set(id, prediction);
    const wait = /\bwait\b/.test(String(ctx.req.headers["prefer"] ?? ""));
    const pending = ctx.fault?.kind === "replicate-pending" || !wait;
    sendJson(ctx, 201, predictionJson(prediction, pending ? (wait ? "processing" : "starting") : "succeeded"));
  };

  // -------------------------------------------------------------------------------------------
  // fal-ai

  type FalOutcome = { ok: true; result: Json } | { ok: false; reply: ErrorReply };
  const falFail = (status: number, message: string): FalOutcome => ({ ok: false, reply: errorReply("fal", status, message) });
  const falResult = async (task: string, body: Record<string, unknown>, requestId: string): Promise<FalOutcome> => {
    const cdnPath = (name: string): string => `/files/sim/${requestId}/${name}`;
    if (task === "text-to-image") {
      const prompt = str(body["prompt"]);
      if (!prompt) return falFail(422, "prompt: field required");
      const png = makePng(prompt);
      const url = body["sync_mode"] === true ? `data:image/png;base64,${png.toString("base64")}` : storeAsset("v3.fal.media", cdnPath("image.png"), "image/png", png);
      return { ok: true, result: { images: [{ url, width: 16, height: 16, content_type: "image/png" }], timings: { inference: 0.01 }, seed: seedBytes(prompt).readUInt32BE(0), has_nsfw_concepts: [false], prompt } };
    }
    if (task === "text-to-video") {
      const prompt = str(body["prompt"]);
      if (!prompt) return falFail(422, "prompt: field required");
      const mp4 = makeMp4(prompt);
      return { ok: true, result: { video: { url: storeAsset("v3.fal.media", cdnPath("output.mp4"), "video/mp4", mp4), content_type: "video/mp4", file_name: "output.mp4", file_size: mp4.length }, seed: seedBytes(prompt).readUInt32BE(0) } };
    }
    if (task === "text-to-speech") {
      const text = str(body["text"]) ?? str(body["prompt"]);
      if (!text) return falFail(422, "text: field required");
      const wav = makeWav(text);
      return { ok: true, result: { audio: { url: storeAsset("v3.fal.media", cdnPath("speech.wav"), "audio/wav", wav), content_type: "audio/wav", file_name: "speech.wav", file_size: wav.length } } };
    }
    if (task === "automatic-speech-recognition") {
      const audioUrl = str(body["audio_url"]);
      if (!audioUrl) return falFail(422, "audio_url: field required");
      const audio = await fetchAudioUrl(audioUrl);
      if (!audio) return falFail(422, `Failed to download the file from audio_url (${audioUrl.slice(0, 60)})`);
      if (!["wav", "flac", "mp3", "ogg"].includes(sniffMedia(audio))) return falFail(422, "Unsupported or corrupt audio file");
      const text = transcript(audio);
      return { ok: true, result: { text, chunks: [{ timestamp: [0, audioDurationSeconds(audio) ?? 0], text }] } };
    }
    return falFail(400, `The simulator does not implement fal-ai task ${task}`);
  };

  /** The fal "audio URL fetch": data: URLs are decoded; http(s) URLs are fetched, but only from this simulator. */
  const fetchAudioUrl = async (audioUrl: string): Promise<Buffer | null> => {
    if (audioUrl.startsWith("data:")) {
      const comma = audioUrl.indexOf(",");
      if (comma < 0) return null;
      const meta = audioUrl.slice(0, comma);
      const payload = audioUrl.slice(comma + 1);
      return meta.endsWith(";base64") ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload));
    }
    let target: string;
    try {
      const parsed = new URL(audioUrl);
      target = audioUrl.startsWith(`${selfUrl}/`) ? audioUrl : `${selfUrl}/${parsed.host}${parsed.pathname}${parsed.search}`;
    } catch {
      return null;
    }
    const response = await fetch(target);
    if (!response.ok) return null;
    return Buffer.from(await response.arrayBuffer());
  };

  const handleFal = async (ctx: Ctx): Promise<void> => {
    const route = ctx.up.route;
    const isQueue = ctx.up.host === "queue.fal.run" || ctx.up.searchParams.get("_subdomain") === "queue";
    const requestMatch = /^(.+?)\/requests\/([^/]+)(\/status)?$/.exec(route);
    if (ctx.req.method === "GET" && requestMatch) {
      const item = falQueue.get(requestMatch[2] ?? "");
      if (!item || item.appPath !== requestMatch[1]) return sendError(ctx, 404, "Request not found");
      const responseUrl = `https://queue.fal.run/${item.appPath}/requests/${item.requestId}`;
      if (requestMatch[3]) {
        item.polls += 1;
        const done = item.polls > (opts.falQueueInProgressPolls ?? 0);
        return sendJson(ctx, done ? 200 : 202, {
          status: done ? "COMPLETED" : "IN_PROGRESS",
          request_id: item.requestId,
          response_url: responseUrl,
          status_url: `${responseUrl}/status`,
          cancel_url: `${responseUrl}/cancel`,
          logs: null,
          metrics: done ? { inference_time: 0.5 } : {},
        });
      }
      return sendJson(ctx, 200, item.result);
    }
    if (ctx.req.method !== "POST") return sendError(ctx, 405, "Method not allowed");
    const body = ctx.json;
    if (!isRecord(body)) return sendError(ctx, 422, "Request body must be a JSON object (fal-ai takes JSON, with audio as audio_url).");
    const modelPath = route;
    ctx.record.model = modelPath;
    const task = providerTask("fal-ai", modelPath);
    if (!task) return sendError(ctx, 404, `Application '${modelPath}' not found`);
    const requestId = `sim-${shortHash(`${seq}:${JSON.stringify(body)}`, 24)}`;
    const outcome = await falResult(task, body, requestId);
    if (!outcome.ok) return send(ctx, outcome.reply.status, outcome.reply.contentType, outcome.reply.body);
    const result = outcome.result;
    if (!isQueue) return sendJson(ctx, 200, result);
    // Queue apps answer with the owner/app part of the path only, as fal does for nested endpoints.
    const appPath = modelPath.split("/").slice(0, 2).join("/");
    falQueue.set(requestId, { requestId, appPath, polls: 0, result });
    const responseUrl = `https://queue.fal.run/${appPath}/requests/${requestId}`;
    sendJson(ctx, 200, { status: "IN_QUEUE", request_id: requestId, response_url: responseUrl, status_url: `${responseUrl}/status`, cancel_url: `${responseUrl}/cancel`, queue_position: 0 });
  };

  // -------------------------------------------------------------------------------------------
  // Hub API and asset hosts

  const handleHub = async (ctx: Ctx): Promise<void> => {
    const path = ctx.up.path;
    if (ctx.fault?.kind === "slow") await sleep(ctx.fault.firstByteDelayMs ?? ctx.fault.tokenDelayMs);
    const rawMatch = /^\/(.+?)\/(?:raw|resolve)\/[^/]+\/(.+)$/.exec(path);
    if (ctx.req.method === "GET" && rawMatch && !path.startsWith("/api/")) {
      const model = hubModels.get(decodeURIComponent(rawMatch[1] ?? ""));
      if (!model) return sendError(ctx, 404, "Repository not found", "hf-inference");
      if (rawMatch[2] !== "README.md" || model.readme === undefined) return sendError(ctx, 404, "Entry not found", "hf-inference");
      return send(ctx, 200, "text/plain; charset=utf-8", model.readme);
    }
    if (path === "/api/tasks") {
      const tasks: Record<string, { id: string; models: Array<{ id: string }> }> = {};
      for (const m of hubModels.values()) {
        const entry = (tasks[m.pipeline_tag] ??= { id: m.pipeline_tag, models: [] });
        entry.models.push({ id: m.id });
      }
      return sendJson(ctx, 200, tasks);
    }
    const modelMatch = /^\/api\/models\/(.+)$/.exec(path);
    if (ctx.req.method === "GET" && modelMatch) {
      const id = decodeURIComponent(modelMatch[1] ?? "");
      const model = hubModels.get(id);
      if (!model) return sendError(ctx, 404, "Repository not found", "hf-inference");
      const expand = ctx.up.searchParams.getAll("expand[]");
      const full: Record<string, Json> = {
        _id: shortHash(model.id, 24),
        id: model.id,
        pipeline_tag: model.pipeline_tag,
        tags: model.tags,
        inferenceProviderMapping: model.inferenceProviderMapping as unknown as Json,
        ...(model.details as Record<string, Json> | undefined),
      };
      if (expand.length === 0) return sendJson(ctx, 200, { ...full, modelId: model.id });
      const out: Record<string, Json> = { _id: full["_id"] ?? null, id: model.id };
      for (const key of expand) {
        const value = full[key];
        if (value !== undefined) out[key] = value;
      }
      return sendJson(ctx, 200, out);
    }
    sendError(ctx, 404, "Sorry, we can't find the page you are looking for.", "hf-inference");
  };

  const handleAsset = (ctx: Ctx): void => {
    const asset = assets.get(`${ctx.up.host}${ctx.up.path}`);
    if (!asset || (ctx.req.method !== "GET" && ctx.req.method !== "HEAD")) return send(ctx, 404, "text/plain; charset=utf-8", "Not Found");
    send(ctx, 200, asset.contentType, asset.bytes);
  };

  // -------------------------------------------------------------------------------------------
  // Control API

  const readJson = (body: Buffer): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: body.length === 0 ? {} : JSON.parse(body.toString("utf8")) };
    } catch {
      return { ok: false };
    }
  };

  const control = (req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): void => {
    const reply = (status: number, payload: unknown): void => {
      const text = JSON.stringify(payload);
      res.writeHead(status, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)) });
      res.end(text);
    };
    const route = `${req.method ?? "GET"} ${path}`;
    if (route === "GET /__simulator/health") return reply(200, { ok: true, simulator: "modelyard-provider-simulator", testToolOnly: true });
    if (route === "GET /__simulator/requests") return reply(200, { requests });
    if (route === "POST /__simulator/reset") {
      reset();
      return reply(200, { ok: true });
    }
    if (route === "POST /__simulator/faults" || route === "POST /__simulator/hub-models") {
      const parsed = readJson(body);
      if (!parsed.ok) return reply(400, { error: "Body is not valid JSON" });
      if (route === "POST /__simulator/faults") {
        const result = scriptFaultBodySchema.safeParse(parsed.value);
        if (!result.success) return reply(400, { error: z.prettifyError(result.error) });
        scriptFault(result.data.match, result.data.fault);
        return reply(201, { ok: true, activeFaults: faults.length });
      }
      const result = hubModelSchema.safeParse(parsed.value);
      if (!result.success) return reply(400, { error: z.prettifyError(result.error) });
      hubModels.set(result.data.id, result.data);
      return reply(201, { ok: true });
    }
    reply(404, { error: `Unknown simulator control route ${route}` });
  };

  // -------------------------------------------------------------------------------------------
  // Request entry point

  const parseUpstream = (rawUrl: string): Upstream | null => {
    const parsed = new URL(rawUrl, "http://simulator.invalid");
    const segments = parsed.pathname.split("/");
    const host = segments[1] ?? "";
    if (!host.includes(".")) return null;
    const path = `/${segments.slice(2).join("/")}`;
    let service: Service = "unknown";
    let provider: string | null = null;
    let route = path.replace(/^\/+/, "");
    if (host === ROUTER_HOST) {
      service = "router";
      const [first, ...others] = route.split("/");
      provider = first ?? null;
      route = others.join("/");
    } else if (host === HUB_HOST) {
      service = "hub";
    } else if (ASSET_HOSTS.has(host)) {
      service = "asset";
    } else if (PROVIDER_HOSTS[host]) {
      service = "provider";
      provider = PROVIDER_HOSTS[host] ?? null;
    }
    return { host, path, query: parsed.search, searchParams: parsed.searchParams, service, provider, route };
  };

  const readBody = (req: IncomingMessage): Promise<Buffer | null> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          resolve(null);
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      req.on("end", () => resolve(Buffer.concat(chunks)));
      req.on("error", reject);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawUrl = req.url ?? "/";
    const body = await readBody(req);
    if (body === null) {
      res.writeHead(413, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "Request body too large for the simulator" }));
      return;
    }
    const pathOnly = rawUrl.split("?")[0] ?? "/";
    if (pathOnly.startsWith("/__simulator/")) return control(req, res, pathOnly, body);

    const up = parseUpstream(rawUrl);
    if (!up) {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "Not a simulated upstream URL: expected /<upstream host>/<path>, e.g. /router.huggingface.co/together/v1/chat/completions" }));
      return;
    }
    const contentType = typeof req.headers["content-type"] === "string" ? req.headers["content-type"] : null;
    let json: unknown = undefined;
    let bodyText: string | null = null;
    if (body.length > 0 && (isTextual(contentType) || (!contentType && body[0] === 0x7b))) {
      bodyText = body.toString("utf8");
      try {
        json = JSON.parse(bodyText);
      } catch {
        json = undefined;
      }
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const auth = tokenKindOf(headers["authorization"]);
    if (headers["authorization"] !== undefined) headers["authorization"] = `${auth.scheme ?? ""} REDACTED`.trim();
    seq += 1;
    const record: RecordedRequest = {
      seq,
      method: req.method ?? "GET",
      host: up.host,
      path: up.path,
      query: up.query,
      originalUrl: `https://${up.host}${up.path}${up.query}`,
      service: up.service,
      provider: up.provider,
      model: isRecord(json) ? str(json["model"]) ?? null : null,
      headers,
      authorization: auth,
      contentType,
      bodySize: body.length,
      bodyText,
      bodyJson: json,
      bodyMedia: body.length > 0 && bodyText === null ? sniffMedia(body) : null,
      faultApplied: null,
      responseStatus: null,
      dropped: false,
    };
    if (up.provider === "hf-inference" && up.route.startsWith("models/")) {
      record.model = up.route.slice("models/".length).replace(/\/(pipeline\/.+|v1\/chat\/completions|chat\/completions)$/, "");
    } else if (up.provider === "fal-ai") {
      record.model = up.route.replace(/\/requests\/.*$/, "");
    } else if (up.provider === "replicate") {
      const m = /^v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(up.route);
      if (m) record.model = m[1] ?? null;
      else if (isRecord(json)) record.model = str(json["version"]) ?? null;
    }
    requests.push(record);
    res.on("finish", () => {
      record.responseStatus = res.statusCode;
    });

    const fault = up.service === "hub" || up.service === "asset" || up.service === "router" || up.service === "provider" || up.service === "unknown" ? takeFault(record) : null;
    record.faultApplied = fault?.kind ?? null;
    const ctx: Ctx = { req, res, up, body, json, record, fault };

    if (dropWhen(fault) === "before-headers") {
      record.dropped = true;
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "error") {
      return sendError(ctx, fault.status, fault.message ?? defaultFaultMessage(fault.status), fault.style);
    }
    if (fault?.kind === "loading") {
      const model = record.model ?? "the model";
      const reply = { error: `Model ${model} is currently loading`, estimated_time: fault.estimatedTime ?? 20.0 };
      return send(ctx, 503, "application/json", JSON.stringify(reply));
    }

    switch (up.service) {
      case "hub":
        return handleHub(ctx);
      case "asset":
        return handleAsset(ctx);
      case "unknown":
        return sendError(ctx, 502, `The simulator does not know upstream host ${up.host}`, "hf-inference");
      case "router":
      case "provider":
        break;
    }
    if (!checkAuth(ctx)) return;
    const provider = up.provider ?? "";
    if (provider === "hf-inference") return handleHfInference(ctx);
    if (provider === "replicate") return handleReplicate(ctx);
    if (provider === "fal-ai") return handleFal(ctx);
    if (OPENAI_STYLE_PROVIDERS.has(provider)) return handleOpenAiCompatible(ctx, provider);
    sendError(ctx, 404, `Unknown provider '${provider}'`, "hf-inference");
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: `Simulator failure: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, bindHost, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  selfUrl = `http://${bindHost.includes(":") ? `[${bindHost}]` : bindHost}:${address.port}`;

  return {
    url: selfUrl,
    port: address.port,
    requests,
    scriptFault,
    addHubModel: (model: HubFixtureModel): void => {
      hubModels.set(model.id, hubModelSchema.parse(model));
    },
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function dropWhen(fault: Fault | null): "before-headers" | "mid-body" | null {
  if (fault?.kind !== "drop") return null;
  return fault.when ?? (fault.afterChunks === undefined ? "before-headers" : "mid-body");
}

// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// What a simulated provider sees of one request (Ctx), what it may ask of the simulator
// (SimulatorServices), and the replies every provider writes the same way.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HubFixtureModel } from "../hub-fixture.ts";
import type { MediaKind } from "../media.ts";
import { errorReply } from "./errors.ts";
import { dropWhen, type ErrorStyle, type Fault } from "./faults.ts";

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

export interface Upstream {
  host: string;
  path: string;
  query: string;
  searchParams: URLSearchParams;
  service: Service;
  provider: string | null;
  /** Provider-relative route without a leading slash, e.g. "v1/chat/completions" or "fal-ai/flux/dev". */
  route: string;
}

/** What the simulator offers a provider: its options, the Hub fixture and the media hosts it serves. */
export interface SimulatorServices {
  /** The simulator's own base URL, e.g. http://127.0.0.1:40123. */
  selfUrl(): string;
  /** Delay between streamed chat chunks, in ms. */
  tokenDelayMs: number;
  /** How many fal queue status polls answer IN_PROGRESS before COMPLETED. */
  falQueueInProgressPolls: number;
  /** How many Black Forest Labs result polls answer Pending before Ready. */
  bflPendingPolls: number;
  hubModels(): ReadonlyMap<string, HubFixtureModel>;
  /**
   * A URL on a provider's host that the client will fetch with its own plain fetch (a polling
   * URL): at the simulator, or at the real host, as the assetUrls option says.
   */
  hostUrl(host: string, pathAndQuery: string): string;
  /** Keeps media for an asset host (fal CDN, replicate.delivery) and returns the URL it is served at. */
  storeAsset(host: string, path: string, contentType: string, bytes: Buffer): string;
  /** Provider id -> task, from the Hub fixture (how a replicate or fal model's task is known). */
  providerTask(provider: string, providerId: string): string | null;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  up: Upstream;
  body: Buffer;
  json: unknown;
  record: RecordedRequest;
  fault: Fault | null;
  /** The error style of the provider answering (hf-inference's for the Hub and unknown hosts). */
  errorStyle: ErrorStyle;
  sim: SimulatorServices;
}

/** One provider of @huggingface/inference 3.13.1, as the simulator plays it (tests/simulators/providers/). */
export interface SimulatedProvider {
  /** The provider's name in the library, and its prefix on the router (router.huggingface.co/<id>/...). */
  id: string;
  /** Its own API hosts, e.g. api.together.xyz. */
  hosts: readonly string[];
  /** Media hosts whose files its answers link to. */
  assetHosts?: readonly string[];
  errorStyle: ErrorStyle;
  /** The Authorization scheme its provider key must use (fal: "Key"); any scheme when unset. */
  keyScheme?: string;
  /** The 401 message for a missing or wrong credential, when the provider words it its own way. */
  unauthorizedMessage?: string;
  /** Routes on its own hosts answered without a credential (route as in Upstream.route). */
  openRoute?(method: string, route: string): boolean;
  /** The model a request names, for the request log and fault matching, when not the JSON body's `model`. */
  recordedModel?(route: string, json: unknown): string | null | undefined;
  /** A fresh handler per simulator; its state (queued requests, predictions) goes with reset(). */
  create(sim: SimulatorServices): ProviderHandler;
}

export interface ProviderHandler {
  handle(ctx: Ctx): Promise<void> | void;
  reset?(): void;
}

export function send(ctx: Ctx, status: number, contentType: string, payload: string | Buffer, extraHeaders: Record<string, string> = {}): void {
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
}

export function sendJson(ctx: Ctx, status: number, body: unknown, contentType = "application/json"): void {
  send(ctx, status, contentType, JSON.stringify(body));
}

export function sendError(ctx: Ctx, status: number, message: string, style?: ErrorStyle, extraHeaders: Record<string, string> = {}): void {
  const reply = errorReply(style ?? ctx.errorStyle, status, message);
  send(ctx, reply.status, reply.contentType, reply.body, extraHeaders);
}

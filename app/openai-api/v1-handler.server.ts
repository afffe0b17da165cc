/**
 * /v1/*, OpenAI's API over the one inference gateway (ADR 0040): the same caller check, quotas,
 * cost caps, credentials, deadline, log line and usage record as POST /api/inference, with the
 * bodies, provider choice, failover and error words of OpenAI's API. Mounted on Node's request and
 * response beside /api/inference, before React Router (server/app.ts, ADR 0008).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { AccessDenied, checkInferenceScope, identify, mayUseServerKeys } from "#app/auth/access.server.ts";
import { clientAddressOf } from "#app/auth/client-address.server.ts";
import { crossSiteMessage, crossSiteRefusal } from "#app/auth/cross-site.server.ts";
import { accessPolicy } from "#app/auth/policy.server.ts";
import { visitorTokenFrom } from "#app/inference/credentials.server.ts";
import type { GatewayErrorBody } from "#app/inference/errors.server.ts";
import type { GatewayOutcome, InferenceGateway } from "#app/inference/gateway.server.ts";
import { getInferenceGateway } from "#app/inference/gateway-instance.server.ts";
import { gatewayInputOf, headerValue, requestIdOfResponse, writeOutcome } from "#app/inference/node-adapter.server.ts";
import { openAiErrorText } from "#app/openai-api/openai-errors.ts";
import { chatStreamEncoder, completionStreamEncoder, servedModelName, type V1Answer, v1Answer } from "#app/openai-api/v1-answers.server.ts";
import type { InferenceRequest } from "#app/inference/request-schema.ts";
import { readV1Request, type V1Kind, v1Param, type V1Request } from "#app/openai-api/v1-bodies.server.ts";
import { listV1Models } from "#app/openai-api/v1-models.server.ts";
import { planV1Call, type RoutingPolicy } from "#app/openai-api/v1-plan.server.ts";
import { DATABASE_DOWN_MESSAGE, isDatabaseUnavailable } from "#app/utils/database-errors.ts";
import { log } from "#app/utils/logger.server.ts";

const POST_ROUTES: Record<string, V1Kind> = {
  "/v1/chat/completions": "chat",
  "/v1/completions": "completions",
  "/v1/embeddings": "embeddings",
  "/v1/images/generations": "images",
  "/v1/audio/transcriptions": "transcriptions",
  "/v1/audio/speech": "speech",
};

/** The routing settings (MODELYARD_V1_ROUTING, MODELYARD_V1_FAILOVER). */
export interface V1Settings {
  policy: RoutingPolicy;
  failover: number;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, message: string, code: string, param: string | null = null, headers: Record<string, string> = {}): void {
  send(res, status, openAiErrorText({ status, message, code, param }), headers);
}

/**
 * Failing before the first byte with these lets the next provider be tried. Not a timeout: the
 * deadline is the request's, so a provider after it would get no time, only a usage record.
 */
function mayFailOver(error: GatewayErrorBody): boolean {
  if (error.code === "client_closed" || error.code === "sign_in_required" || error.code === "token_rejected" || error.code === "deadline_exceeded" || error.code === "server_shutting_down") return false;
  return error.status === 429 || error.status >= 500;
}

/** The process-wide gateway answers `req` on /v1/*. Never rejects. */
export function serveOpenAi(req: IncomingMessage, res: ServerResponse<IncomingMessage>): void {
  let gateway: InferenceGateway;
  try {
    gateway = getInferenceGateway();
  } catch (error) {
    if (!res.hasHeader("x-request-id")) res.setHeader("x-request-id", randomUUID());
    sendError(res, 503, error instanceof Error ? error.message : "The inference gateway is misconfigured.", "gateway_misconfigured");
    return;
  }
  void handleOpenAiRequest(gateway, req, res);
}

/** One /v1 request through `gateway`, answered on `res`. Never rejects. */
export async function handleOpenAiRequest(gateway: InferenceGateway, req: IncomingMessage, res: ServerResponse<IncomingMessage>): Promise<void> {
  // The id server/app.ts gave every answer, so the access line, the gateway's line and the body's ids agree.
  const requestId = requestIdOfResponse(res) ?? randomUUID();
  res.setHeader("x-request-id", requestId);
  const settings: V1Settings = { policy: gateway.config.v1Routing, failover: gateway.config.v1Failover };
  const path = (req.url ?? "/").split("?")[0]!.replace(/\/+$/, "");
  // The request gate leaves /v1 to this check (server/app.ts), so the refusal is in OpenAI's shape.
  const crossSite = crossSiteRefusal(req.method ?? "GET", { get: (name) => headerValue(req, name) }, gateway.access.publicUrl);
  if (crossSite !== null) return sendError(res, 403, crossSiteMessage(crossSite), "cross_site_refused");
  try {
    await route(gateway, req, res, path, requestId, settings);
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      log().error({ req_id: requestId, err: error }, `[v1] ${requestId}: the database is not answering`);
      return sendError(res, 503, DATABASE_DOWN_MESSAGE, "database_unavailable", null, { "Retry-After": "5" });
    }
    log().error({ req_id: requestId }, `[v1] ${requestId} failed: ${error instanceof Error ? error.name : "unknown"}`);
    sendError(res, 500, "The server failed unexpectedly while answering this request.", "internal_error");
  }
}

async function route(gateway: InferenceGateway, req: IncomingMessage, res: ServerResponse, path: string, requestId: string, settings: V1Settings): Promise<void> {
  const method = req.method ?? "GET";
  if (path === "/v1/models" || path.startsWith("/v1/models/")) {
    if (method !== "GET" && method !== "HEAD") return sendError(res, 405, `${method} is not supported on ${path}; use GET.`, "method_not_allowed", null, { Allow: "GET, HEAD" });
    return models(gateway, req, res, path);
  }
  const kind = POST_ROUTES[path];
  if (!kind) {
    return sendError(res, 404, `No route ${path} here. This server answers GET /v1/models and POST ${Object.keys(POST_ROUTES).join(", ")}; see /docs/api.`, "unknown_url");
  }
  if (method !== "POST") return sendError(res, 405, `${method} is not supported on ${path}; use POST.`, "method_not_allowed", null, { Allow: "POST" });

  let v1: V1Request | null = null;
  let planned: InferenceRequest[] = [];
  const outcome = await gateway.run(gatewayInputOf(req, res), {
    endpoint: path,
    signedInUnlessOpen: true,
    parse: async (source, maxBytes) => {
      v1 = await readV1Request(kind, source, maxBytes);
      return v1.parsed;
    },
    plan: async (body, ctx) => {
      planned = await planV1Call({ kind, ref: v1!.ref, body, db: ctx.db, catalog: ctx.catalog, env: ctx.env, serverKeys: ctx.serverKeys, visitorToken: ctx.visitorToken, ...settings });
      return planned;
    },
    failover: mayFailOver,
    errorBody: (e) => openAiErrorText({ status: e.status, message: e.message, code: e.code, param: v1Param(kind, e.field) }),
  });
  const request: V1Request | null = v1;
  await answer(outcome, request, planned, res, requestId);
}

async function answer(outcome: GatewayOutcome, v1: V1Request | null, planned: InferenceRequest[], res: ServerResponse, requestId: string): Promise<void> {
  const provider = outcome.headers["X-Modelyard-Provider"];
  if (provider) res.setHeader("x-inference-provider", provider);
  if (outcome.kind === "json" && (outcome.error || !v1)) return writeOutcome(outcome, res);
  if (!v1 || !provider) return writeOutcome(outcome, res);
  // The call that answered: a served name's catalogue id is known only once planned.
  const call = planned.find((p) => (p.endpoint !== undefined ? `endpoint:${p.endpoint}` : p.provider) === provider);
  const served = servedModelName(call?.model ?? v1.parsed.body.model ?? null, provider);
  if (outcome.kind === "stream") {
    const encoder = v1.kind === "chat" ? chatStreamEncoder(v1, served, requestId) : completionStreamEncoder(v1, served, requestId);
    return writeOutcome(outcome, res, encoder);
  }
  const done: V1Answer = await v1Answer(v1, outcome.kind === "json" ? outcome.output : null, outcome.kind === "blob" ? outcome.blob : null, served, requestId);
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  const timing = outcome.headers["Server-Timing"];
  if (timing) headers["Server-Timing"] = timing;
  if (done.kind === "json") return send(res, done.status, done.body, headers);
  res.writeHead(done.status, { ...headers, "Content-Type": done.contentType, "Content-Length": String(done.blob.size) });
  await pipeline(Readable.fromWeb(done.blob.stream() as NodeWebReadableStream<Uint8Array>), res).catch(() => {
    // The client went away mid-download: nothing is left to answer.
  });
}

async function models(gateway: InferenceGateway, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const headers = { get: (name: string) => headerValue(req, name) };
  const db = gateway.database();
  let serverKeys: boolean;
  try {
    const caller = await identify(db, headers, clientAddressOf(req.socket.remoteAddress ?? "", headers.get("x-forwarded-for"), gateway.access.trustedProxies));
    checkInferenceScope(caller);
    const policy = await accessPolicy(db, gateway.access);
    if (caller.kind === "anonymous" && policy !== "open") {
      return sendError(res, 401, "This server's API needs a Modelyard API token: send it as Authorization: Bearer myd_… (create one on /settings/tokens).", "sign_in_required");
    }
    serverKeys = mayUseServerKeys(caller, policy);
  } catch (error) {
    if (error instanceof AccessDenied) return sendError(res, error.status, error.message, error.code, error.extra.field ?? null);
    throw error;
  }
  const list = await listV1Models(db, gateway.env, { serverKeys, visitorToken: visitorTokenFrom(headers) });
  if (path === "/v1/models") return send(res, 200, JSON.stringify({ object: "list", data: list }));
  const id = decodeURIComponent(path.slice("/v1/models/".length));
  const found = list.find((m) => m.id === id);
  if (!found) return sendError(res, 404, `The model '${id}' is not one this server can run: GET /v1/models lists those it can.`, "model_not_found", "model");
  return send(res, 200, JSON.stringify(found));
}

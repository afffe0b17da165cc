// Inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// A local node:http server that answers, on loopback, the requests @huggingface/inference 3.13.1
// sends to the Hugging Face router, to provider hosts and to the Hub, using the
// MODELYARD_UPSTREAM_OVERRIDE scheme:  https://<host><path>?<q>  ->  <simulator>/<host><path>?<q>.
// Answers are deterministic functions of the request, with the real wire shapes (paths, payloads,
// JSON bodies, SSE framing, binary media). Faults can be scripted per request, in process or over
// HTTP through /__simulator/*. This file is the server: it records each request, applies faults,
// checks credentials and hands the request to the provider that owns the host (providers/<id>.ts).
// See README.md beside this file for the layout and what is covered.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { HUB_FIXTURE_MODELS, type HubFixtureModel } from "./hub-fixture.ts";
import { sniffMedia } from "./media.ts";
import { blackForestLabs } from "./providers/black-forest-labs.ts";
import { cerebras } from "./providers/cerebras.ts";
import { cohere } from "./providers/cohere.ts";
import { falAi } from "./providers/fal-ai.ts";
import { featherlessAi } from "./providers/featherless-ai.ts";
import { fireworksAi } from "./providers/fireworks-ai.ts";
import { groq } from "./providers/groq.ts";
import { hfInference } from "./providers/hf-inference.ts";
import { hyperbolic } from "./providers/hyperbolic.ts";
import { nebius } from "./providers/nebius.ts";
import { novita } from "./providers/novita.ts";
import { nscale } from "./providers/nscale.ts";
import { openai } from "./providers/openai.ts";
import { ovhcloud } from "./providers/ovhcloud.ts";
import { replicate } from "./providers/replicate.ts";
import { sambanova } from "./providers/sambanova.ts";
import { together } from "./providers/together.ts";
import { type Ctx, type ProviderHandler, type RecordedRequest, type Service, type SimulatedProvider, type SimulatorServices, type TokenKind, type Upstream, send, sendError } from "./common/context.ts";
import { type ActiveFault, defaultFaultMessage, dropWhen, type Fault, type FaultMatch, faultMatchSchema, faultSchema, scriptFaultBodySchema } from "./common/faults.ts";
import { handleHub, hubModelSchema } from "./common/hub-api.ts";
import { isRecord, str } from "./common/util.ts";


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
  /**
   * How many Black Forest Labs result polls answer Pending before Ready (default 2, so a client
   * polls more than once; 3.13.1 gives up after 5 polls, a second apart).
   */
  bflPendingPolls?: number;
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

const ROUTER_HOST = "router.huggingface.co";
const HUB_HOST = "huggingface.co";

/** Every provider the simulator plays, one file each under providers/. */
const PROVIDERS: readonly SimulatedProvider[] = [
  hfInference,
  together,
  groq,
  fireworksAi,
  nebius,
  sambanova,
  cerebras,
  novita,
  cohere,
  hyperbolic,
  nscale,
  featherlessAi,
  ovhcloud,
  openai,
  replicate,
  falAi,
  blackForestLabs,
];
const PROVIDER_BY_ID = new Map(PROVIDERS.map((p) => [p.id, p]));
const PROVIDER_BY_HOST = new Map(PROVIDERS.flatMap((p) => p.hosts.map((host) => [host, p] as const)));
const ASSET_HOSTS = new Set(PROVIDERS.flatMap((p) => p.assetHosts ?? []));

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

const MAX_BODY_BYTES = 50 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// The server

export async function startProviderSimulator(opts: ProviderSimulatorOptions = {}): Promise<ProviderSimulator> {
  const bindHost = opts.host ?? "127.0.0.1";
  const requests: RecordedRequest[] = [];
  let faults: ActiveFault[] = [];
  let seq = 0;
  let hubModels = new Map<string, HubFixtureModel>();
  const assets = new Map<string, { contentType: string; bytes: Buffer }>();
  let selfUrl = "";

  const loadHub = (): void => {
    hubModels = new Map((opts.hubModels ?? HUB_FIXTURE_MODELS).map((m) => [m.id, structuredClone(m)]));
  };
  loadHub();

  const reset = (): void => {
    requests.length = 0;
    faults = [];
    seq = 0;
    for (const handler of handlers.values()) handler.reset?.();
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

  const hostUrl = (host: string, path: string): string =>
    opts.assetUrls === "real-host" ? `https://${host}${path}` : `${selfUrl}/${host}${path}`;

  const storeAsset = (host: string, path: string, contentType: string, bytes: Buffer): string => {
    assets.set(`${host}${path}`, { contentType, bytes });
    return hostUrl(host, path);
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

  // -------------------------------------------------------------------------------------------
  // Providers, the Hub and asset hosts

  const services: SimulatorServices = {
    selfUrl: () => selfUrl,
    tokenDelayMs: opts.tokenDelayMs ?? 0,
    falQueueInProgressPolls: opts.falQueueInProgressPolls ?? 0,
    bflPendingPolls: opts.bflPendingPolls ?? 2,
    hostUrl,
    hubModels: () => hubModels,
    storeAsset,
    providerTask,
  };
  const handlers = new Map<string, ProviderHandler>(PROVIDERS.map((p) => [p.id, p.create(services)]));

  // Auth, as the real hosts check it.
  const checkAuth = (ctx: Ctx, provider: SimulatedProvider | undefined): boolean => {
    const { tokenKind, scheme } = ctx.record.authorization;
    if (ctx.up.service === "router") {
      if (tokenKind !== "hf-token") {
        sendError(ctx, 401, "Invalid credentials in Authorization header", "hf-inference");
        return false;
      }
      return true;
    }
    if (ctx.up.service === "provider") {
      if (provider?.openRoute?.(ctx.req.method ?? "GET", ctx.up.route)) return true;
      if (tokenKind === "provider-key" && (provider?.keyScheme === undefined || scheme === provider.keyScheme)) return true;
      const message =
        provider?.unauthorizedMessage ??
        (tokenKind === "hf-token" ? "Invalid API key provided: a Hugging Face token cannot be used directly with this provider." : "Invalid API key provided.");
      sendError(ctx, 401, message);
      return false;
    }
    return true;
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
    } else if (PROVIDER_BY_HOST.has(host)) {
      service = "provider";
      provider = PROVIDER_BY_HOST.get(host)?.id ?? null;
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
    // Black Forest Labs' own docs send the key as an x-key header; 3.13.1 sends `Authorization: X-Key`.
    const xKey = headers["x-key"];
    const auth = tokenKindOf(headers["authorization"] ?? (xKey === undefined ? undefined : `X-Key ${xKey}`));
    if (headers["authorization"] !== undefined) headers["authorization"] = `${auth.scheme ?? ""} REDACTED`.trim();
    if (xKey !== undefined) headers["x-key"] = "REDACTED";
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
    const simulated = up.provider === null ? undefined : PROVIDER_BY_ID.get(up.provider);
    const named = simulated?.recordedModel?.(up.route, json);
    if (named !== undefined) record.model = named;
    requests.push(record);
    res.on("finish", () => {
      record.responseStatus = res.statusCode;
    });

    const fault = up.service === "hub" || up.service === "asset" || up.service === "router" || up.service === "provider" || up.service === "unknown" ? takeFault(record) : null;
    record.faultApplied = fault?.kind ?? null;
    const ctx: Ctx = { req, res, up, body, json, record, fault, errorStyle: simulated?.errorStyle ?? "hf-inference", sim: services };

    if (dropWhen(fault) === "before-headers") {
      record.dropped = true;
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "error") {
      const extra: Record<string, string> = fault.retryAfterSec !== undefined ? { "Retry-After": String(fault.retryAfterSec) } : {};
      return sendError(ctx, fault.status, fault.message ?? defaultFaultMessage(fault.status), fault.style, extra);
    }
    if (fault?.kind === "loading") {
      const model = record.model ?? "the model";
      const reply = { error: `Model ${model} is currently loading`, estimated_time: fault.estimatedTime ?? 20.0 };
      return send(ctx, 503, "application/json", JSON.stringify(reply));
    }

    if (fault?.kind === "malformed-json") return send(ctx, 200, "application/json", '{"simulated": "an answer cut sh');
    if (fault?.kind === "wrong-shape") return send(ctx, 200, "application/json", JSON.stringify(fault.body ?? { simulated: "an answer in a shape no task has" }));

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
    if (!checkAuth(ctx, simulated)) return;
    const handler = up.provider === null ? undefined : handlers.get(up.provider);
    if (!handler) return sendError(ctx, 404, `Unknown provider '${up.provider ?? ""}'`, "hf-inference");
    return handler.handle(ctx);
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

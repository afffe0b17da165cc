/**
 * The `fetch` the gateway hands to @huggingface/inference, and the scoped hook for the fetches the
 * library makes with the global `fetch` instead (media URLs, fal queue polling, the "auto"
 * mapping lookup, /api/tasks; see docs/decisions/0001-gateway-scoped-global-fetch.md).
 *
 * What it does with each URL:
 *  - Hub lookups (huggingface.co/api/models/<id>?expand[]=…, /api/tasks): answered in-process
 *    from the catalogue; any other Hub URL is refused.
 *  - The HF router, provider API hosts and provider media hosts: sent out, to the real host, or
 *    to `<MODELYARD_UPSTREAM_OVERRIDE>/<host><path and query>` when the override is set.
 *  - Configured endpoint origins: sent out as they are (admin URLs, not provider hosts).
 *  - data: URLs (the library decodes base64 images with fetch): handled locally.
 *  - Anything else: refused with UpstreamRefusedError, so no visitor-typed URL is ever fetched.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { answerHubLookup, type GatewayCatalog } from "#app/inference/hub-lookups.server.ts";
import { formatBytes } from "#app/utils/format.ts";

export const HUB_HOST = "huggingface.co";
export const ROUTER_HOST = "router.huggingface.co";

/** API hosts of the providers 3.13.1 ships (the baseUrl of each provider helper in its src/providers). */
export const PROVIDER_API_HOSTS: ReadonlySet<string> = new Set([
  ROUTER_HOST,
  "api.us1.bfl.ai",
  "api.cerebras.ai",
  "api.cohere.com",
  "fal.run",
  "queue.fal.run",
  "api.featherless.ai",
  "api.fireworks.ai",
  "api.groq.com",
  "api.hyperbolic.xyz",
  "api.studio.nebius.ai",
  "api.novita.ai",
  "inference.api.nscale.com",
  "api.openai.com",
  "oai.endpoints.kepler.ai.cloud.ovh.net",
  "api.replicate.com",
  "api.sambanova.ai",
  "api.together.xyz",
]);

/** Where providers put generated media that the library then downloads. */
const MEDIA_HOST_SUFFIXES = ["fal.media", "replicate.delivery", "bfl.ai", "novita.ai"];

export function isMediaHost(host: string): boolean {
  return MEDIA_HOST_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`));
}

/**
 * A provider request 3.13.1 sends without any credential by design: Black Forest Labs' result
 * poll (BlackForestLabsTextToImageTask.getResponse fetches polling_url with a Content-Type
 * header only). It is let through, keyless, rather than refused as a call without a token.
 */
function isKeylessPoll(url: URL, method: string): boolean {
  return method.toUpperCase() === "GET" && url.host === "api.us1.bfl.ai" && url.pathname === "/v1/get_result";
}

/** https://<host><path>?<query> -> <base>/<host><path>?<query>; URLs already under base stay as they are. */
export function toOverrideUrl(url: URL, base: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return `${trimmed}/${url.host}${url.pathname}${url.search}`;
}

/** A provider or Hub request the gateway will not send; the message never carries a secret. */
export class UpstreamRefusedError extends Error {
  override name = "UpstreamRefusedError";
}

/**
 * A provider's answer past MODELYARD_INFERENCE_MAX_ANSWER_BYTES: the gateway stopped reading it
 * and so aborted its request. The message names the limit and the variable, never a secret.
 */
export class AnswerTooLargeError extends Error {
  override name = "AnswerTooLargeError";
  constructor(
    readonly limitBytes: number,
    host: string,
  ) {
    super(`The answer from ${host} is larger than ${formatBytes(limitBytes)} (${limitBytes} bytes), the limit MODELYARD_INFERENCE_MAX_ANSWER_BYTES sets, so the gateway stopped reading it.`);
  }
}

/** A provider request without any credential (the library would send "Bearer undefined"). */
export class MissingCredentialError extends Error {
  override name = "MissingCredentialError";
}

/** What the gateway saw of the last upstream answer; the library's errors drop the status. */
export interface UpstreamObservation {
  status: number | null;
  /** `estimated_time` (seconds) from a 503 "model is loading" body. */
  estimatedTimeSec: number | null;
  host: string | null;
  requests: number;
  /**
   * The provider's own words in an error answer (any 4xx or 5xx), read from its body: 3.13.1
   * often drops them ("[object Object]" for a `{"message"}` body, "An error occurred while
   * fetching the blob" for a text/html or untyped one, "Server response contains error: 500"
   * when streaming, "does not seem to support chat completion" on a chat call's 500). Null for an
   * HTML page or a body that says nothing.
   */
  refusal: string | null;
  /** The seconds a 429 or 503 answer's Retry-After asked the client to wait, if it said. */
  retryAfterSec: number | null;
  /**
   * Set when an answer passed the answer limit. Kept here because the library may wrap the read's
   * error in its own (a media download's "Failed to fetch …"), losing it.
   */
  tooLarge: AnswerTooLargeError | null;
}

/** The most of an error body read for its words: a provider's error page may be any size. */
const ERROR_BODY_READ_BYTES = 64 * 1024;

/** The first `limit` bytes of a body as text; the rest is never read. */
async function leadingText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    while (bytes < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  return text;
}

/**
 * What an error answer says, from at most ERROR_BODY_READ_BYTES of its body: the provider's words
 * (an HTML page, a proxy's or a CDN's, carries none worth showing), and a 503's `estimated_time`.
 */
async function errorBody(response: Response): Promise<{ refusal: string | null; estimatedTimeSec: number | null }> {
  const type = response.headers.get("content-type") ?? "";
  const text = await leadingText(response.clone().body, ERROR_BODY_READ_BYTES).catch(() => "");
  let estimatedTimeSec: number | null = null;
  if (response.status === 503 && type.includes("json")) {
    try {
      const said: unknown = JSON.parse(text);
      if (typeof said === "object" && said !== null && "estimated_time" in said && typeof said.estimated_time === "number") estimatedTimeSec = said.estimated_time;
    } catch {
      // cut short or not JSON: no estimate
    }
  }
  return { refusal: /^text\/html\b/i.test(type) ? null : refusalMessage(text), estimatedTimeSec };
}

/**
 * `response` with a body that fails with `tooLarge()` once more than `limit` bytes have come. The
 * failure cancels the provider's body, which aborts its request, so nothing more is read.
 */
function limitAnswer(response: Response, limit: number, tooLarge: () => Error): Response {
  if (response.body === null) return response;
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Retry-After as seconds from now: a delay in seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Statuses with which a provider refuses the request itself (too long, a bad parameter), not its own state. */
export const REQUEST_REFUSED_STATUSES: ReadonlySet<number> = new Set([400, 413, 422]);

/**
 * The message of a provider's error body, in the shapes providers write it (OpenAI's, TGI's,
 * FastAPI's, a quoted string, plain text); null when it holds none. Not cut to length: that is done
 * once secrets are removed (errors.server.ts), as a cut could split one.
 */
export function refusalMessage(text: string): string | null {
  let said: unknown = text.trim();
  try {
    said = JSON.parse(text);
  } catch {
    // plain text
  }
  const pick = (v: unknown): string | null => {
    if (typeof v === "string") return v.trim() || null;
    if (Array.isArray(v)) {
      // FastAPI's validation errors: [{loc, msg, type}, …].
      const parts = (v as unknown[]).map((item) => (typeof item === "object" && item !== null && "msg" in item && typeof item.msg === "string" ? item.msg : pick(item))).filter((x): x is string => x !== null);
      return parts.length > 0 ? parts.join("; ") : null;
    }
    if (typeof v === "object" && v !== null) {
      for (const key of ["message", "error", "detail"]) {
        if (key in v) {
          const found = pick((v as Record<string, unknown>)[key]);
          if (found) return found;
        }
      }
    }
    return null;
  };
  return pick(said);
}

export interface GatewayFetchOptions {
  catalog: GatewayCatalog;
  /** MODELYARD_UPSTREAM_OVERRIDE, or null. */
  override: string | null;
  signal: AbortSignal;
  /** Origins of configured endpoints. */
  endpointOrigins: ReadonlySet<string>;
  /** False for endpoint calls: local servers often need no key. */
  requireCredential: boolean;
  observation: UpstreamObservation;
  /**
   * MODELYARD_INFERENCE_MAX_ANSWER_BYTES: the most of one answer from a provider, media host or
   * endpoint the library may read (it reads a whole answer with response.json() or .blob()).
   */
  maxAnswerBytes: number;
  /** The real fetch (the global one from before the scoped hook was installed). */
  baseFetch?: typeof fetch;
}

function toUrl(input: string | URL | Request): URL | null {
  try {
    return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  } catch {
    return null;
  }
}

export function createGatewayFetch(opts: GatewayFetchOptions): typeof fetch {
  const base = opts.baseFetch ?? realFetch();
  const overrideBase = opts.override ? opts.override.replace(/\/+$/, "") : null;
  const overrideOrigin = overrideBase ? new URL(overrideBase).origin : null;

  const gatewayFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = toUrl(input);
    if (!url) throw new UpstreamRefusedError("The inference library asked for an invalid URL.");
    if (url.protocol === "data:") return base(url.href, init);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new UpstreamRefusedError(`Refused a ${url.protocol} URL.`);
    if (opts.signal.aborted) throw opts.signal.reason;

    if (url.host === HUB_HOST && url.protocol === "https:") {
      const answer = await answerHubLookup(url, opts.catalog);
      if (answer) return answer;
      throw new UpstreamRefusedError(`Refused a Hub request the gateway does not make (${url.pathname}).`);
    }

    let target: string;
    const isProvider = url.protocol === "https:" && PROVIDER_API_HOSTS.has(url.host);
    if (isProvider || (url.protocol === "https:" && isMediaHost(url.host))) {
      target = overrideBase ? toOverrideUrl(url, overrideBase) : url.href;
    } else if (opts.endpointOrigins.has(url.origin) || (overrideOrigin !== null && url.origin === overrideOrigin && url.href.startsWith(`${overrideBase}/`))) {
      // Configured endpoints, and media URLs a provider stand-in already wrote under the override base.
      target = url.href;
    } else {
      throw new UpstreamRefusedError(`Refused to fetch ${url.host}: it is not a provider, media or configured endpoint host.`);
    }

    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    if (init?.headers) new Headers(init.headers).forEach((v, k) => headers.set(k, v));
    const auth = headers.get("authorization");
    if (auth !== null && /^(Bearer|Key)\s+(undefined|null)?\s*$/i.test(auth)) headers.delete("authorization");
    if (isProvider && opts.requireCredential && !headers.has("authorization") && !isKeylessPoll(url, method)) {
      throw new MissingCredentialError("No token for this provider.");
    }

    // The library passes the call's own signal back in; combining a signal with itself is waste.
    const signal = init?.signal && init.signal !== opts.signal ? AbortSignal.any([init.signal, opts.signal]) : opts.signal;
    const body = init?.body ?? (input instanceof Request ? input.body : undefined);
    const requestInit: RequestInit & { duplex?: "half" } = { method, headers, body: body ?? null, signal, redirect: "manual" };
    if (body instanceof ReadableStream) requestInit.duplex = "half";
    opts.observation.requests += 1;
    opts.observation.host = url.host;
    const response = await base(target, requestInit);
    opts.observation.status = response.status;
    opts.observation.estimatedTimeSec = null;
    opts.observation.refusal = null;
    opts.observation.retryAfterSec = null;
    opts.observation.tooLarge = null;
    if (response.status >= 400) {
      const said = await errorBody(response);
      opts.observation.refusal = said.refusal;
      opts.observation.estimatedTimeSec = said.estimatedTimeSec;
    }
    if (response.status === 429 || response.status === 503) opts.observation.retryAfterSec = retryAfterSeconds(response.headers.get("retry-after"));
    if (response.status >= 300 && response.status < 400) {
      // Following a redirect could leave the allowed hosts; providers do not redirect API calls.
      throw new UpstreamRefusedError(`The upstream host ${url.host} answered with a redirect, which the gateway does not follow.`);
    }
    return limitAnswer(response, opts.maxAnswerBytes, () => (opts.observation.tooLarge = new AnswerTooLargeError(opts.maxAnswerBytes, url.host)));
  };
  return gatewayFetch;
}

// -------------------------------------------------------------------------------------------
// Scoped global fetch: only code running inside runWithGatewayFetch() sees the gateway fetch;
// every other fetch in the process goes to the original global fetch untouched.

interface Hook {
  original: typeof fetch;
  scope: AsyncLocalStorage<typeof fetch>;
  /** Scoped calls in flight; at zero the storage is disabled (see runWithGatewayFetch). */
  active: number;
}
/** Module state: a process holds one copy of this module (ADR 0019), so one wrapper. */
let installed: Hook | undefined;

function realFetch(): typeof fetch {
  return installed?.original ?? globalThis.fetch;
}

function installHook(): Hook {
  if (installed) return installed;
  const hook: Hook = { original: globalThis.fetch, scope: new AsyncLocalStorage<typeof fetch>(), active: 0 };
  installed = hook;
  const scoped = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const inScope = hook.scope.getStore();
    return inScope ? inScope(input, init) : hook.original(input, init);
  };
  globalThis.fetch = scoped;
  return hook;
}

/**
 * Runs fn with the library's global-fetch calls routed through `gatewayFetch`, until the promise
 * fn returns settles. An enabled AsyncLocalStorage makes Node 20 run a hook on every promise in
 * the process, so the storage is disabled again whenever no scoped call is in flight.
 */
export async function runWithGatewayFetch<T>(gatewayFetch: typeof fetch, fn: () => Promise<T>): Promise<T> {
  const hook = installHook();
  hook.active += 1;
  try {
    return await hook.scope.run(gatewayFetch, fn);
  } finally {
    hook.active -= 1;
    if (hook.active === 0) hook.scope.disable();
  }
}

/** The fetch the process had before the hook. The Hub client uses it: it routes its own URLs (`toOverrideUrl`). */
export function originalFetch(): typeof fetch {
  return realFetch();
}

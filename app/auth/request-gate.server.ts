/**
 * What every request passes before any route runs (server/app.ts): the cross-site check for
 * state-changing requests, and under MODELYARD_ACCESS=private, sign-in for every page and API.
 */
import { AccessDenied, identify, tokenScopes } from "#app/auth/access.server.ts";
import { readAuthConfig } from "#app/auth/auth-config.server.ts";
import { crossSiteMessage, crossSiteRefusal } from "#app/auth/cross-site.server.ts";
import { accessPolicy, cachedPolicy } from "#app/auth/policy.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { jsonError } from "#app/utils/http.server.ts";
import { configEnv } from "#app/utils/env.server.ts";

export interface GateRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: { get(name: string): string | null };
}

const isApi = (path: string) => /^\/api(\/|$)/i.test(path);
// /v1 makes both checks itself, to answer in OpenAI's error shape (ADR 0040).
const isOpenAiApi = (path: string) => /^\/v1(\/|$)/i.test(path);

// What a signed-out visitor of a private site still reaches: the way in, and what that page loads.
const OPEN_IN_PRIVATE = /^\/(login|logout|invite\/[^/]+|auth\/oidc(\/callback)?|theme|healthz|readyz|metrics|assets\/.*|favicon\.svg|favicon\.ico|robots\.txt)$/i;

/**
 * Null to let the request through. Answered at once, without a promise, whenever no database read
 * is due (the policy is cached): every request passes here, the streamed chat's too.
 */
export function gateRequest(request: GateRequest): Response | null | Promise<Response | null> {
  const config = readAuthConfig(configEnv());
  const path = routedPath(request.url);
  if (isOpenAiApi(path)) return null;
  const crossSite = crossSiteRefusal(request.method, request.headers, config.publicUrl);
  if (crossSite !== null) {
    const message = crossSiteMessage(crossSite);
    return isApi(path) ? jsonError(403, message, { code: "cross_site_refused" }, { "Cache-Control": "no-store" }) : new Response(message, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  if (OPEN_IN_PRIVATE.test(path)) return null;
  const db = getDb().db;
  const cached = cachedPolicy(db);
  if (cached !== undefined) return (cached ?? config.access) === "private" ? privateGate(request, path) : null;
  return accessPolicy(db, config).then((policy) => (policy === "private" ? privateGate(request, path) : null));
}

/**
 * The path the router will serve: React Router parses the request's URL with WHATWG's URL, which
 * resolves dot segments (`..`, `%2e%2e`) and reads `\` as `/`. Judged on the raw path,
 * `/assets/../api/models` passed as an asset and reached a private site's API signed out.
 */
export function routedPath(url: string): string {
  try {
    return new URL(`http://gate.invalid${url.startsWith("/") ? "" : "/"}${url}`).pathname;
  } catch {
    return url.split("?")[0] ?? "/";
  }
}

// Inference on a private site needs a token's `inference` scope alone, which the gateway checks.
const isInference = (path: string) => /^\/api\/inference(\/|$)/i.test(path);

async function privateGate(request: GateRequest, path: string): Promise<Response | null> {
  const db = getDb().db;
  try {
    const caller = await identify(db, request.headers, "");
    // Reading a private site is what a token's `read` scope is for: a token made for inference
    // alone reached every page and API with it.
    if (caller.kind === "token" && !isInference(path) && !tokenScopes(caller.token).includes("read")) {
      return jsonError(403, "This API token lacks the `read` scope, which reading this private Modelyard needs; it can still call /api/inference and /v1.", { code: "insufficient_scope" }, { "Cache-Control": "no-store" });
    }
    if (caller.kind !== "anonymous") return null;
  } catch (error) {
    if (!(error instanceof AccessDenied)) throw error;
    return jsonError(error.status, error.message, { code: error.code, field: error.extra.field ?? null }, { "Cache-Control": "no-store" });
  }
  if (isApi(path)) return jsonError(401, "This Modelyard is private: sign in, or send a Modelyard API token as Authorization: Bearer myd_….", { code: "sign_in_required" }, { "Cache-Control": "no-store" });
  const back = request.method === "GET" ? request.url : "/";
  return new Response(null, { status: 302, headers: { Location: `/login?redirectTo=${encodeURIComponent(back)}`, "Cache-Control": "no-store" } });
}

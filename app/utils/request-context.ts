import { createContext, RouterContextProvider } from "react-router";
import type { IslandStore } from "#app/utils/html-island.ts";

/** What the HTTP server (server/app.ts) knows about a request that loaders, actions and the document render need. */
export interface RequestScope {
  /** The client's socket address, for per-client limits; null outside the HTTP server. */
  clientAddress: string | null;
  /** This response's CSP nonce (server/security-headers.ts); the document's inline scripts carry it. */
  cspNonce: string | undefined;
  /** Absent when a loader is called outside the HTTP server (tests, scripts). */
  islands: IslandStore | undefined;
  /** Tells the access log who the request is from, once a loader knows (app/utils/request-log.server.ts). */
  noteUser: (userId: string) => void;
}

const OUTSIDE_SERVER: RequestScope = { clientAddress: null, cspNonce: undefined, islands: undefined, noteUser: () => {} };

// The defaults serve a route called directly (a test, a script), which has no server around it.
export const requestScope = createContext<RequestScope>(OUTSIDE_SERVER);

/** The context server/app.ts hands React Router for one request (future.v8_middleware). */
export function createRequestContext(scope: Partial<RequestScope>): RouterContextProvider {
  return new RouterContextProvider(new Map([[requestScope, { ...OUTSIDE_SERVER, ...scope }]]));
}

/** The request's scope from a route's `context`; the defaults when there is none. */
export function scopeOf(context: unknown): RequestScope {
  // Duck-typed rather than instanceof: a test may pass a provider from its own copy of react-router.
  if (typeof context === "object" && context !== null && typeof (context as { get?: unknown }).get === "function") {
    return (context as RouterContextProvider).get(requestScope);
  }
  return OUTSIDE_SERVER;
}

/**
 * The key per-client limits count under: the socket address. Without one (a route called outside
 * the server) every caller shares one key rather than trusting a spoofable header.
 */
export function clientKeyOf(context: unknown): string {
  return scopeOf(context).clientAddress || "shared";
}

/**
 * Each answered request, once: timed into http_request_duration_seconds and written as one access
 * line (method, route pattern, status, duration, request id, and the signed-in person's id when a
 * loader or the gateway learnt it). server/app.ts calls `requestFinished` when a response closes.
 */
import { log } from "#app/utils/logger.server.ts";
import { observeRequest } from "#app/utils/metrics.server.ts";

// Keyed by the Node response, so nothing outlives the request.
const users = new WeakMap<object, string>();

/** The signed-in person (or a token's owner) a request turned out to be from. */
export function noteUser(res: object, userId: string): void {
  users.set(res, userId);
}

export interface FinishedRequest {
  method: string;
  route: string;
  status: number;
  seconds: number;
  requestId: string;
}

export function requestFinished(res: object, r: FinishedRequest): void {
  observeRequest(r.method, r.route, r.status, r.seconds);
  // A server error is the operator's to look at: logged as one, where alerts on the level see it.
  const level = r.status >= 500 ? "error" : "info";
  log()[level]({ req_id: r.requestId, method: r.method, route: r.route, status: r.status, ms: Math.round(r.seconds * 10_000) / 10, user: users.get(res) }, "request");
}

import type { ErrorRequestHandler, RequestHandler, Response as ExpressResponse } from "express";
import type { ServerEntry } from "#server/server-entry.ts";

/**
 * What the routes under /api cannot answer themselves, in their JSON shape rather than Express's
 * or React Router's defaults: a method React Router never dispatches (its answer is a bare 405
 * "Unexpected Server Error"), a path no route pattern can match (an encoded control character),
 * and a URL Express refuses before any route runs (malformed percent-encoding, an HTML page).
 * Under /v1 that last one is answered as OpenAI's error object, which its clients read. Last of
 * all, any error no route answered (the request gate's read of the access policy with the
 * database down): one JSON log line and a short answer, not Express's page and a stack trace.
 */

// The methods React Router hands to a route's loader or action.
const ROUTED_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

// Case-blind, as React Router's matching is: /API/models reaches the same routes.
const isApiPath = (url: string): boolean => {
  const head = url.slice(0, 5).toLowerCase();
  return head === "/api" || head === "/api/" || head === "/api?";
};

const isOpenAiPath = (url: string): boolean => {
  const head = url.slice(0, 4).toLowerCase();
  return head === "/v1" || head === "/v1/" || head === "/v1?";
};

/** A Fetch Response written on Express's. */
export async function sendFetchResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.end(await response.text());
}


/** The path once decoded, or null when its percent-encoding is malformed (the router reports that). */
function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split("?")[0] ?? "");
  } catch {
    return null;
  }
}

export interface ApiGuard {
  /** First in the chain: what React Router would answer outside the JSON shape. */
  methodGuard: RequestHandler;
  /** Last in the chain: a URL Express could not decode. */
  errorHandler: ErrorRequestHandler;
}

/** The JSON errors come from the server build (server/server-entry.ts), as all of app/ the server runs does. */
export function createApiGuard({ jsonError, methodNotAllowed, openAiErrorText, log, isDatabaseUnavailable, DATABASE_DOWN_MESSAGE }: Pick<ServerEntry, "jsonError" | "methodNotAllowed" | "openAiErrorText" | "log" | "isDatabaseUnavailable" | "DATABASE_DOWN_MESSAGE">): ApiGuard {
  const methodGuard: RequestHandler = (req, res, next) => {
    if (!isApiPath(req.originalUrl)) {
      // A page answers GET, HEAD and its forms' POST; TRACE, PROPFIND and the like get a plain
      // 405 here rather than React Router's 500 and a stack trace in the log.
      if (ROUTED_METHODS.has(req.method)) return next();
      res.status(405).set({ Allow: "GET, HEAD, POST", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).end(`${req.method.slice(0, 20)} is not supported here.`);
      return;
    }
    if (!ROUTED_METHODS.has(req.method)) return void sendFetchResponse(res, methodNotAllowed(req.method, req.originalUrl.split("?")[0] ?? "/api"));
    // React Router's patterns never match across a line break, so an encoded control character in
    // the path fell through to the HTML 404 page.
    if (/[\u0000-\u001f\u007f]/.test(decodedPath(req.originalUrl) ?? "")) {
      return void sendFetchResponse(res, jsonError(400, "The URL path holds a control character.", { field: "path" }, { "Cache-Control": "no-store" }));
    }
    next();
  };

  const errorHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const openAi = isOpenAiPath(req.originalUrl);
    const api = isApiPath(req.originalUrl);
    const status = typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : 500;
    // The router failing to decode the path (a stray or truncated '%') is a URIError with a 400.
    const refused = status >= 400 && status < 500;
    if (refused) {
      // Any other 4xx Express gave itself (a static file's range, say) keeps its status, briefly.
      const malformed = error instanceof URIError;
      const message = malformed ? "The URL is not valid: its percent-encoding is malformed." : `The request could not be served (${status}).`;
      const field = malformed ? "path" : null;
      if (openAi) res.status(status).set({ "Content-Type": "application/json", "Cache-Control": "no-store" }).end(openAiErrorText({ status, message, code: "invalid_request", param: field }));
      else if (api) void sendFetchResponse(res, jsonError(status, message, { field }, { "Cache-Control": "no-store" }));
      else res.status(status).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).end(`${message}\n`);
      return;
    }
    const down = isDatabaseUnavailable(error);
    log().error({ err: error, method: req.method, url: req.originalUrl.slice(0, 200), database_unavailable: down }, down ? "request failed: the database is not answering" : "request failed");
    const headers = { "Cache-Control": "no-store", ...(down ? { "Retry-After": "5" } : {}) };
    const answer = down ? { status: 503, message: DATABASE_DOWN_MESSAGE, code: "database_unavailable" } : { status: 500, message: "The server failed unexpectedly.", code: "internal_error" };
    if (openAi) res.status(answer.status).set({ ...headers, "Content-Type": "application/json" }).end(openAiErrorText({ status: answer.status, message: answer.message, code: answer.code, param: null }));
    else if (api) void sendFetchResponse(res, jsonError(answer.status, answer.message, { code: answer.code }, headers));
    else res.status(answer.status).set({ ...headers, "Content-Type": "text/plain; charset=utf-8" }).end(`${answer.message}\n`);
  };

  return { methodGuard, errorHandler };
}

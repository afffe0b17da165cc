// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
import type { ErrorStyle } from "./faults.ts";

// Error bodies in each provider's own style.

export interface ErrorReply {
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

export function errorReply(style: ErrorStyle, status: number, message: string): ErrorReply {
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
    case "empty-json":
      // A proxy's or an overloaded server's error: typed as JSON, with nothing in it.
      return { status, contentType: "application/json", body: "" };
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

import type { ServerResponse } from "node:http";

/**
 * Throws a Response when a condition fails, for loaders: the route's ErrorBoundary renders it.
 * The message is shown to the visitor, so it must never carry a secret.
 */
export function invariantResponse(condition: unknown, message: string, init?: ResponseInit): asserts condition {
  if (!condition) {
    throw new Response(message, { status: 400, ...init, headers: { "Content-Type": "text/plain; charset=utf-8", ...init?.headers } });
  }
}

/**
 * The one JSON error body of every API answer, as text: {error: {message, ...details}}. The
 * Fetch answer (jsonError), the Node one (writeJsonError) and the inference gateway's outcomes
 * are all written from it; the Hub-compatible /api/models errors use hubError, in the Hub's own shape.
 */
export function jsonErrorBody(message: string, details: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: { message, ...details } });
}

/**
 * The Hub's own error shape, {error: "message", ...details}, for the Hub-compatible /api/models
 * answers: huggingface_hub and @huggingface/inference read `error` as a string there.
 */
export function hubError(status: number, message: string, details: Record<string, unknown> = {}, headers: HeadersInit = {}): Response {
  return Response.json({ error: message, ...details }, { status, headers });
}

/** A JSON error answer for a Fetch handler (routes, loaders). */
export function jsonError(status: number, message: string, details: Record<string, unknown> = {}, headers: HeadersInit = {}): Response {
  const merged = new Headers(headers);
  if (!merged.has("Content-Type")) merged.set("Content-Type", "application/json");
  return new Response(jsonErrorBody(message, details), { status, headers: merged });
}

/** A JSON error answer on Node's response (handlers that run before React Router); ends it if headers already went. */
export function writeJsonError(res: ServerResponse, status: number, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(jsonErrorBody(message, details));
}

// What each /api resource answers, for the Allow header of its 405: the routes' own 405s and the
// server's guard for methods React Router never dispatches (PROPFIND, …) read it from here.
const API_METHODS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/inference\/?$/, "GET, HEAD, POST"],
  [/^\/api\/chat-template\/render\/?$/, "POST"],
  [/^\/api(?:\/|$)/, "GET, HEAD"],
];

export function allowedApiMethods(pathname: string): string {
  return API_METHODS.find(([re]) => re.test(pathname))?.[1] ?? "GET, HEAD";
}

/** 405 in the API's JSON shape, with the resource's Allow header. */
export function methodNotAllowed(method: string, pathname: string): Response {
  const allow = allowedApiMethods(pathname);
  return jsonError(405, `${method.slice(0, 20)} is not supported on ${pathname.slice(0, 200)}; use ${allow}.`, { code: "method_not_allowed", field: null }, { Allow: allow, "Cache-Control": "no-store" });
}

/**
 * A Fetch body's bytes, refused with `tooLarge()` as soon as it declares or passes `maxBytes`, so
 * an oversized body is never held whole in memory. Used for bodies we receive and answers we fetch.
 */
export async function readBytesCapped(
  message: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Buffer> {
  const declared = Number(message.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await message.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!message.body) return Buffer.alloc(0);
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A page form's fields, read with a bound on the body: past `maxBytes` the request is refused with
 * 413 and nothing more is kept. Forms are small; an unbounded `request.formData()` let one 300 MB
 * body take a gigabyte of memory. A body up to 1 MiB is read to its end and dropped, so the 413
 * reaches a browser still sending it; a larger one is cut off.
 */
export async function readFormCapped(request: Request, maxBytes: number): Promise<FormData> {
  const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const tooLarge = () => plain(413, `The form is larger than ${maxBytes} bytes.`);
  const drainLimit = Math.max(maxBytes, 1024 * 1024);
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > drainLimit) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > drainLimit) {
          await reader.cancel().catch(() => {});
          break;
        }
        if (size <= maxBytes) chunks.push(value);
      }
    } catch {
      throw plain(400, "The form could not be read.");
    }
  }
  if (size > maxBytes) throw tooLarge();
  const type = request.headers.get("content-type") ?? "";
  try {
    return await new Response(Buffer.concat(chunks), { headers: { "Content-Type": type || "application/x-www-form-urlencoded" } }).formData();
  } catch {
    throw plain(400, "The form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data.");
  }
}


/** A form field's text: "" when it is missing or is a file. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

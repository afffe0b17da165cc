import { limitKeyOf } from "#app/auth/client-address.server.ts";
import { renderForApi, type ModelTemplateRecord } from "#app/chat-template/render-request.ts";
import { getChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelChatTemplate } from "#app/db/queries/chat-templates.server.ts";
import { jsonError } from "#app/utils/http.server.ts";
import { clientKeyOf } from "#app/utils/request-context.ts";

/**
 * The body cap: the largest template (256 KB) plus the largest inputs (1 MB) the sandbox accepts,
 * with room for JSON escaping. Checked before parsing, from Content-Length and while reading.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

const NO_STORE = { "Cache-Control": "no-store" };

type BodyResult = { ok: true; text: string } | { ok: false; response: Response };

async function readBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const tooLarge = () => ({
    ok: false as const,
    // The rest of the body is never read, so the connection cannot carry another request.
    response: jsonError(413, `The request body is larger than ${maxBytes} bytes.`, { field: null }, { ...NO_STORE, Connection: "close" }),
  });
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > maxBytes) return tooLarge();
  if (!request.body) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, response: jsonError(400, "The request body is not valid UTF-8.", { field: null }, NO_STORE) };
  }
}

async function lookupModelTemplate(id: string): Promise<ModelTemplateRecord | null> {
  const model = await getModelChatTemplate(getDb().db, id);
  return model ? { chatTemplate: model.chatTemplate, bosToken: model.bosToken, eosToken: model.eosToken } : null;
}

/**
 * POST /api/chat-template/render: `{template | model, messages, tools?, add_generation_prompt?,
 * bos_token?, eos_token?, template_name?}` → `{text, templateName}`; a template error is a 422
 * with `{error: {message, kind, line, column, excerpt}}`; a bad body a 400 naming the field.
 * Rendering runs in the worker-thread sandbox with a time limit (app/chat-template/sandbox.server.ts);
 * a client over its share of the sandbox gets a 429 with Retry-After.
 */
export async function action({ request, context }: { request: Request; context?: unknown }) {
  if (request.method !== "POST") {
    return jsonError(405, `${request.method} is not supported on /api/chat-template/render; use POST.`, { field: null }, { Allow: "POST", ...NO_STORE });
  }
  const type = request.headers.get("Content-Type") ?? "";
  if (type !== "" && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return jsonError(415, `The request body must be JSON (Content-Type: application/json), not ${type.slice(0, 100)}.`, { field: null }, NO_STORE);
  }
  const read = await readBody(request, MAX_BODY_BYTES);
  if (!read.ok) return read.response;
  if (read.text.trim() === "") return jsonError(400, "The request body is empty; send a JSON object.", { field: null }, NO_STORE);
  let body: unknown;
  try {
    body = JSON.parse(read.text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return jsonError(400, `The request body is not valid JSON: ${detail}`, { field: null }, NO_STORE);
  }
  const client = limitKeyOf(clientKeyOf(context));
  const result = await renderForApi(body, lookupModelTemplate, (input) => getChatTemplateSandbox().render(input, { client }));
  if (result.status === 200) return Response.json(result.body, { headers: NO_STORE });
  const { message, ...details } = result.body.error;
  const headers = result.status === 429 ? { ...NO_STORE, "Retry-After": String(result.body.error.retryAfterSeconds) } : NO_STORE;
  return jsonError(result.status, message, details, headers);
}

export function loader({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/chat-template/render; POST a JSON body.`, { field: null }, { Allow: "POST", ...NO_STORE });
}

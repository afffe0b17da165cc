/**
 * The gateway's first step: the request as a validated InferenceRequest and, for a multipart
 * form, the uploaded file. Every refusal is a GatewayError (415 wrong content type or file type,
 * 413 too large, 400 unreadable, not JSON or not the schema).
 */
import { GatewayError } from "#app/inference/errors.server.ts";
import { boundaryOf, FILE_FIELD, type FormShape, type MultipartForm, REQUEST_FIELD, type UploadedFile } from "#app/inference/multipart.server.ts";
import { describeIssues, inferenceRequestSchema, type InferenceRequest } from "#app/inference/request-schema.ts";

/** What parsing reads from an incoming request, whichever HTTP adapter received it. */
export interface RequestBodySource {
  headers: { get(name: string): string | null };
  /** The body as text; throws a GatewayError (413) past maxBytes. */
  readBody(maxBytes: number): Promise<string>;
  /** The multipart form (multipart.server.ts); throws a GatewayError on a malformed, oversized or unknown upload. */
  readMultipart(boundary: string, maxRequestBytes: number, shape?: FormShape): Promise<MultipartForm>;
}

export interface ParsedRequest {
  body: InferenceRequest;
  /** The multipart `inputs` file, or null for a JSON request. */
  file: UploadedFile | null;
}

async function readOrRefuse<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError({ status: 400, code: "invalid_request", message: "The request body could not be read." });
  }
}

/** Deeper than any real request (a tool's JSON schema is a few levels); deeper ones overflowed the stack of code that walks them. */
export const MAX_JSON_DEPTH = 64;

/** How deep a parsed JSON value nests, counted without recursion and given up on past `limit`. */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) if (typeof child === "object" && child !== null) stack.push([child, here]);
  }
  return deepest;
}

/** JSON text checked against the schema; `field` names where it came from (the form's `request`, or the body). */
function parseBody(raw: string, field: string | null): InferenceRequest {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    const where = field === null ? "The request body" : `The \`${field}\` field`;
    throw new GatewayError({ status: 400, code: "invalid_json", message: `${where} is not valid JSON.`, field });
  }
  const depth = nestingDepth(json, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    const where = field === null ? "The request body" : `The \`${field}\` field`;
    throw new GatewayError({ status: 400, code: "invalid_json", message: `${where} is nested more than ${MAX_JSON_DEPTH} levels deep.`, field });
  }
  const parsed = inferenceRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new GatewayError({
      status: 400,
      code: "invalid_request",
      message: `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      field: issues[0]?.path ?? null,
    });
  }
  return parsed.data;
}

export async function parseInferenceRequest(source: RequestBodySource, maxBodyBytes: number): Promise<ParsedRequest> {
  const contentType = source.headers.get("content-type") ?? "";
  if (/^application\/json\b/i.test(contentType)) {
    const raw = await readOrRefuse(() => source.readBody(maxBodyBytes));
    return { body: parseBody(raw, null), file: null };
  }
  if (/^multipart\/form-data\b/i.test(contentType)) {
    const boundary = boundaryOf(contentType);
    if (boundary === null) throw new GatewayError({ status: 400, code: "invalid_request", message: "A multipart/form-data Content-Type needs a boundary parameter.", field: "Content-Type" });
    const form = await readOrRefuse(() => source.readMultipart(boundary, maxBodyBytes));
    return { body: parseBody(form.request ?? "", REQUEST_FIELD), file: form.file };
  }
  throw new GatewayError({
    status: 415,
    code: "unsupported_media_type",
    message: `Send the request body as JSON with Content-Type: application/json, or as multipart/form-data with the JSON in \`${REQUEST_FIELD}\` and a file in \`${FILE_FIELD}\`.`,
  });
}

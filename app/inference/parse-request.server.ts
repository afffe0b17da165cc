/**
 * The gateway's first step: the request body as a validated InferenceRequest. Every refusal is a
 * GatewayError (415 wrong content type, 413 too large, 400 unreadable, not JSON or not the schema).
 */
import { GatewayError } from "#app/inference/errors.server.ts";
import { describeIssues, inferenceRequestSchema, type InferenceRequest } from "#app/inference/request-schema.ts";

/** What parsing reads from an incoming request, whichever HTTP adapter received it. */
export interface RequestBodySource {
  headers: { get(name: string): string | null };
  /** The body as text; throws a GatewayError (413) past maxBytes. */
  readBody(maxBytes: number): Promise<string>;
}

export async function parseInferenceRequest(source: RequestBodySource, maxBodyBytes: number): Promise<InferenceRequest> {
  const contentType = source.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(contentType)) {
    throw new GatewayError({ status: 415, code: "unsupported_media_type", message: "Send the request body as JSON with Content-Type: application/json." });
  }
  let raw: string;
  try {
    raw = await source.readBody(maxBodyBytes);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError({ status: 400, code: "invalid_request", message: "The request body could not be read." });
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new GatewayError({ status: 400, code: "invalid_json", message: "The request body is not valid JSON.", field: null });
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

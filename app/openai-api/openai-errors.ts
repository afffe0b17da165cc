/**
 * OpenAI's error object, which the openai SDKs turn into typed errors by status (400
 * BadRequestError, 401 AuthenticationError, 403 PermissionDeniedError, 404 NotFoundError, 429
 * RateLimitError, 5xx InternalServerError): {error: {message, type, param, code}}.
 */
export interface OpenAiErrorInput {
  status: number;
  message: string;
  /** The gateway's own code (model_not_found, provider_rate_limited, …). */
  code: string;
  /** The request field at fault, in the /v1 body's own names. */
  param: string | null;
}

export function openAiErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "api_error";
  return "invalid_request_error";
}

export function openAiErrorText(e: OpenAiErrorInput): string {
  return JSON.stringify({ error: { message: e.message, type: openAiErrorType(e.status), param: e.param, code: e.code } });
}

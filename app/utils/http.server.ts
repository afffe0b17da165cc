/**
 * Throws a Response when a condition fails, for loaders: the route's ErrorBoundary renders it.
 * The message is shown to the visitor, so it must never carry a secret.
 */
export function invariantResponse(condition: unknown, message: string, init?: ResponseInit): asserts condition {
  if (!condition) {
    throw new Response(message, { status: 400, ...init, headers: { "Content-Type": "text/plain; charset=utf-8", ...init?.headers } });
  }
}

/** A JSON error body in one shape for every API route: {error: {message, ...details}}. */
export function jsonError(status: number, message: string, details: Record<string, unknown> = {}, headers: HeadersInit = {}): Response {
  return Response.json({ error: { message, ...details } }, { status, headers });
}

import { sessionJsonSchema } from "#app/compare/session-schema.ts";

/** GET /schemas/session-v1.json — the session file format, derived from the zod schema that validates it. */
export function loader({ request }: { request: Request }) {
  return new Response(`${JSON.stringify(sessionJsonSchema(new URL(request.url).origin), null, 2)}\n`, {
    headers: { "Content-Type": "application/schema+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

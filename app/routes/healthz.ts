import { getDb } from "#app/db/db.server.ts";

/**
 * Liveness: the process answers. Nothing here reads the database, so an outage of PostgreSQL fails
 * readiness (/readyz) alone, and a liveness probe or the image's HEALTHCHECK does not restart every
 * instance for it (an operator's review found /healthz waiting 10 s for a count, then a 500).
 */
export function loader() {
  return Response.json({ ok: true, dialect: getDb().dialect }, { headers: { "Cache-Control": "no-store" } });
}

import { RESERVED_SEGMENTS } from "#app/import/record-schema.ts";
import { getDb } from "#app/db/db.server.ts";
import { findSimilarModelIds, getModelById } from "#app/db/queries/models.server.ts";

/**
 * Loads a model for its page, or throws a 404 whose body lists close matches (one per line
 * after the message) so the error boundary can offer them.
 */
export async function loadModelPage(id: string) {
  const first = id.split("/")[0]!.toLowerCase();
  const { db } = getDb();
  const model = (RESERVED_SEGMENTS as readonly string[]).includes(first) ? null : await getModelById(db, id);
  if (!model) {
    const similar = await findSimilarModelIds(db, id);
    throw new Response([`No model '${id}' in this catalogue.`, ...similar].join("\n"), {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return { model };
}

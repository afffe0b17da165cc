import { getDb } from "#app/db/db.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";

export async function loader() {
  const handle = getDb();
  return Response.json({ ok: true, dialect: handle.dialect, models: await countModels(handle.db) });
}

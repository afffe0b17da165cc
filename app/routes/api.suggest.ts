import { MAX_SEARCH_LENGTH } from "#app/catalog-search/listing-params.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { suggest } from "#app/catalog-search/views/suggest.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { jsonError } from "#app/utils/http.server.ts";

/** GET /api/suggest?q= — the header search's suggestions: models, organisations and tasks. */
export async function loader({ request }: { request: Request }) {
  const q = new URL(request.url).searchParams.get("q") ?? "";
  if (q.length > MAX_SEARCH_LENGTH) return jsonError(400, `Query parameter 'q' is longer than ${MAX_SEARCH_LENGTH} characters.`, { field: "q" });
  const suggestions = await suggest(await openSnapshot(getDb()), q.trim());
  return Response.json(suggestions, { headers: { "Cache-Control": "private, max-age=60" } });
}

export function action({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/suggest; use GET.`, {}, { Allow: "GET, HEAD" });
}

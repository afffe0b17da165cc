import type { Route } from "./+types/api.models";
import { HUB_SORTS, toHubListItem } from "#app/catalog/hub-api.ts";
import { type ListParams, ParamError, paramErrorResponse, parseListParams } from "#app/catalog-search/hub-params.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { getListExtras } from "#app/db/queries/models.server.ts";
import { methodNotAllowed } from "#app/utils/http.server.ts";

/**
 * `GET /api/models`, with the Hub's parameters and item shape, paginated by a `Link: <…>;
 * rel="next"` header as the Hub does. Errors are `{error: "<message>", parameter, allowed}`:
 * the Hub's shape, which Hub clients read as the message.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  let p: ListParams;
  try {
    p = parseListParams(url.searchParams);
  } catch (e) {
    if (e instanceof ParamError) return paramErrorResponse(e);
    throw e;
  }
  const snapshot = await openSnapshot(getDb());
  const page = await search(snapshot, p.filters, { sort: HUB_SORTS[p.sort], ascending: p.ascending, offset: 0, limit: p.limit, after: p.cursor, counts: "none" });
  const wantsExtras = p.full || p.cardData || p.config || p.expand.some((f) => ["sha", "siblings", "cardData", "config"].includes(f));
  const extras = wantsExtras ? await getListExtras(snapshot.handle.db, page.models.map((m) => m.id)) : null;
  const items = page.models.map((m) =>
    toHubListItem(m, { full: p.full, cardData: p.cardData, config: p.config, expand: p.expand, extras: extras?.get(m.id) ?? null }),
  );
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (page.next) {
    const next = new URL(url);
    next.searchParams.set("cursor", Buffer.from(JSON.stringify(page.next)).toString("base64url"));
    headers.set("Link", `<${next.toString()}>; rel="next"`);
  }
  return Response.json(items, { headers });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request.method, new URL(request.url).pathname);
}

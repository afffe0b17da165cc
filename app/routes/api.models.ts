import type { Route } from "./+types/api.models";
import { type ListParams, ParamError, paramErrorResponse, parseListParams } from "#app/catalog-search/views/hub-params.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { hubListPage } from "#app/catalog-search/views/hub-list.server.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
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
  const page = await hubListPage(await openSnapshot(getDb()), p);
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  if (page.next) {
    const next = new URL(url);
    next.searchParams.set("cursor", Buffer.from(JSON.stringify(page.next)).toString("base64url"));
    headers.set("Link", `<${next.toString()}>; rel="next"`);
  }
  return new Response(page.body, { headers });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request.method, new URL(request.url).pathname);
}

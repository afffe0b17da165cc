import type { Route } from "./+types/api.$";
import { jsonError } from "#app/utils/http.server.ts";

/** Unknown API paths answer in JSON, never with the HTML 404 page. */
export function loader({ params }: Route.LoaderArgs) {
  return jsonError(404, `No API endpoint at /api/${params["*"] ?? ""}`, { hint: "See /api/models and /api/tasks." });
}

export function action({ params }: Route.ActionArgs) {
  return jsonError(404, `No API endpoint at /api/${params["*"] ?? ""}`);
}

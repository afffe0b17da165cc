import type { Route } from "./+types/api.models.$";
import { toHubModelInfo } from "#app/catalog/hub-api.ts";
import { ParamError, paramErrorResponse, parseExpand } from "#app/catalog-search/views/hub-params.server.ts";
import { checkModelId } from "#app/catalog/model-id.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { listSpacesForModel } from "#app/db/queries/spaces.server.ts";
import { hubError, methodNotAllowed } from "#app/utils/http.server.ts";

/**
 * `GET /api/models/<org>/<name>` and `/api/models/<name>`, plus the `/revision/<rev>` form that
 * @huggingface/hub's modelInfo uses (the catalogue keeps one revision, so any revision answers
 * with it). Shape and `expand[]=` follow the Hub's `/api/models/{id}`. The router has already
 * decoded the splat once; decoding it again turned a literal '%' into a URIError.
 */
function parseModelPath(splat: string): { id: string; revision: string | null } | null {
  const parts = splat.split("/").filter((p) => p !== "");
  if (parts.length === 1 || parts.length === 2) return { id: parts.join("/"), revision: null };
  if (parts.length === 3 && parts[1] === "revision") return { id: parts[0]!, revision: parts[2]! };
  if (parts.length === 4 && parts[2] === "revision") return { id: `${parts[0]}/${parts[1]}`, revision: parts[3]! };
  return null;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const splat = params["*"] ?? "";
  const target = parseModelPath(splat);
  if (!target) {
    return hubError(404, `No API endpoint at /api/models/${splat.slice(0, 300)}`, { hint: "Use /api/models/<org>/<name> or /api/models/<org>/<name>/revision/<rev>." });
  }
  let expand;
  try {
    const id = checkModelId(target.id);
    if (!id.ok) throw new ParamError("id", `'${target.id.slice(0, 100)}' is not a model id: ${id.message}`, "a model id such as 'org/name'");
    expand = parseExpand(new URL(request.url).searchParams);
  } catch (e) {
    if (e instanceof ParamError) return paramErrorResponse(e);
    throw e;
  }
  const { db } = getDb();
  const model = await getModelById(db, target.id);
  // The Hub's wording and status, which @huggingface/inference turns into "Model … does not exist".
  if (!model) return hubError(404, "Repository not found", {}, { "X-Error-Code": "RepoNotFound" });
  const spaces = expand.length === 0 || expand.includes("spaces") ? await listSpacesForModel(db, model.id) : [];
  return Response.json(toHubModelInfo(model, expand, spaces), { headers: { "Cache-Control": "no-store" } });
}

export function action({ request }: Route.ActionArgs) {
  return methodNotAllowed(request.method, new URL(request.url).pathname);
}

import { checkModelId } from "#app/catalog/model-id.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { chatDemoInfo } from "#app/demos/chat/demo-info.server.ts";
import { taskWidgetInfo } from "#app/demos/task-widget-info.server.ts";
import { configEnv } from "#app/utils/env.server.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * GET /api/inference?model=<id>: what the model's demo needs: {demo: ChatDemoInfo | null} for a chat
 * model, {widget: TaskWidgetInfo | null} for a task that has a widget.
 * POST never reaches this module: both servers answer it first with the one inference handler
 * (app/inference/node-adapter.server.ts; server/app.ts in production, server/dev-inference-plugin.ts
 * under `react-router dev`). Other methods are refused here.
 */
export function action({ request }: { request: Request }) {
  if (request.method === "POST") {
    return jsonError(500, "POST /api/inference is answered by the server's inference handler, which this server did not mount.", { code: "internal_error" });
  }
  return jsonError(405, `${request.method} is not supported on /api/inference; use POST.`, { code: "method_not_allowed" }, { Allow: "GET, POST" });
}

export async function loader({ request }: { request: Request }) {
  const raw = new URL(request.url).searchParams.get("model");
  if (!raw) return jsonError(405, "POST a JSON body to run inference; GET needs ?model=<id> for the chat demo's settings.", { code: "method_not_allowed" }, { Allow: "GET, POST" });
  const checked = checkModelId(raw);
  if (!checked.ok) return jsonError(400, `Query parameter 'model' is not valid: ${checked.message}.`, { code: "invalid_request", field: "model" });
  const id = checked.id;
  const model = await getModelById(getDb().db, id);
  if (!model) return jsonError(404, `No model '${id}' in this catalogue.`, { code: "model_not_found" });
  return Response.json({ demo: chatDemoInfo(model, configEnv()), widget: taskWidgetInfo(model, configEnv()) }, { headers: { "Cache-Control": "no-store" } });
}

import { checkModelId } from "#app/catalog/model-id.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { chatDemoInfo } from "#app/demos/chat/demo-info.server.ts";
import { getInferenceGateway } from "#app/inference/gateway-instance.server.ts";
import { jsonError } from "#app/utils/http.server.ts";
import { clientKeyOf } from "#app/utils/request-context.ts";

/**
 * POST /api/inference: the inference gateway (app/inference/gateway.server.ts). A resource route:
 * JSON, media bytes or text/event-stream, never HTML.
 * GET /api/inference?model=<id>: what the chat demo needs for that model ({demo: ChatDemoInfo | null}).
 */
export async function action({ request, context }: { request: Request; context: unknown }) {
  if (request.method !== "POST") {
    return jsonError(405, `${request.method} is not supported on /api/inference; use POST.`, { code: "method_not_allowed" }, { Allow: "GET, POST" });
  }
  let gateway;
  try {
    gateway = getInferenceGateway();
  } catch (error) {
    // A bad MODELYARD_INFERENCE_* value: say which, as JSON (the message names the variable, never a secret).
    return jsonError(503, error instanceof Error ? error.message : "The inference gateway is misconfigured.", { code: "gateway_misconfigured" });
  }
  return gateway.handle(request, { clientKey: clientKeyOf(context) });
}

export async function loader({ request }: { request: Request }) {
  const raw = new URL(request.url).searchParams.get("model");
  if (!raw) return jsonError(405, "POST a JSON body to run inference; GET needs ?model=<id> for the chat demo's settings.", { code: "method_not_allowed" }, { Allow: "GET, POST" });
  const checked = checkModelId(raw);
  if (!checked.ok) return jsonError(400, `Query parameter 'model' is not valid: ${checked.message}.`, { code: "invalid_request", field: "model" });
  const id = checked.id;
  const model = await getModelById(getDb().db, id);
  if (!model) return jsonError(404, `No model '${id}' in this catalogue.`, { code: "model_not_found" });
  return Response.json({ demo: chatDemoInfo(model, process.env) }, { headers: { "Cache-Control": "no-store" } });
}

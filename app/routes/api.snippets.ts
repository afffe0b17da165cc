import { checkModelId } from "#app/catalog/model-id.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { checkTaskParameters } from "#app/inference/task-parameters.server.ts";
import { buildInferencePanel, parseFollowedRequest, parseInferenceState, snippetOrigin } from "#app/snippets/inference-panel.server.ts";
import { snippetTaskFor, supportedProvidersFor } from "#app/snippets/providers.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * GET /api/snippets?model=<id>&provider=&stream=1&bill_to=&lang=&inputs=&parameters= — the inference
 * snippets panel (text plus server-highlighted HTML) as JSON, so a page can switch provider, or
 * follow a demo's text (inputs=) and a task widget's parameters (parameters=, a JSON object checked
 * against the task's spec as the gateway checks them), without a reload. Bad input is a 400 with
 * {error: {message, field}}; an unknown model a 404.
 */
export async function loader({ request }: { request: Request }) {
  const params = new URL(request.url).searchParams;
  const raw = params.get("model");
  if (raw === null || raw === "") return jsonError(400, "Query parameter 'model' (a model id) is required.", { field: "model" });
  const checked = checkModelId(raw);
  if (!checked.ok) return jsonError(400, `Query parameter 'model' is not valid: ${checked.message}.`, { field: "model" });
  const id = checked.id;
  const { db } = getDb();
  const model = await getModelById(db, id);
  if (!model) return jsonError(404, `No model '${id.slice(0, 200)}' in this catalogue.`);
  if (supportedProvidersFor(model).length === 0) return jsonError(400, `No inference provider supported by @huggingface/inference 3.13.1 serves ${model.id}.`, { field: "model" });
  const parsed = parseInferenceState(params, model);
  if (parsed.inputError) return jsonError(400, parsed.inputError, { field: parsed.inputFields[0] ?? null, fields: parsed.inputFields });
  const followed = parseFollowedRequest(params);
  if (!followed.ok) return jsonError(400, followed.message, { field: followed.field });
  const task = snippetTaskFor(model);
  if (followed.follows.parameters !== undefined) {
    if (task === "conversational") return jsonError(400, "Query parameter 'parameters' is for task widgets; a chat model's snippets take no widget parameters.", { field: "parameters" });
    const problem = checkTaskParameters(task, followed.follows.parameters);
    if (problem) return jsonError(400, `Query parameter 'parameters' is not valid: ${problem.message}.`, { field: problem.field });
  }
  return Response.json(buildInferencePanel(model, parsed, followed.follows, snippetOrigin(request.url)), { headers: { "Cache-Control": "no-store" } });
}

export function action({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/snippets; use GET.`, {}, { Allow: "GET, HEAD" });
}

import { checkModelId } from "#app/catalog/model-id.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { buildInferencePanel, parseInferenceState } from "#app/snippets/inference-panel.server.ts";
import { supportedProvidersFor } from "#app/snippets/providers.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * GET /api/snippets?model=<id>&provider=&stream=1&bill_to=&lang=&inputs= — the model page's inference
 * snippets panel (text plus server-highlighted HTML) as JSON, so the page can switch provider
 * without a reload. Bad input is a 400 with {error: {message, field}}; an unknown model a 404.
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
  const inputs = params.get("inputs") ?? undefined;
  if (inputs !== undefined && (inputs.length === 0 || inputs.length > 4_000)) return jsonError(400, "Query parameter 'inputs' must be 1 to 4,000 characters of text.", { field: "inputs" });
  return Response.json(buildInferencePanel(model, parsed, inputs), { headers: { "Cache-Control": "no-store" } });
}

export function action({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/snippets; use GET.`, {}, { Allow: "GET, HEAD" });
}

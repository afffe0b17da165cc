/**
 * The Hub lookups @huggingface/inference 3.13.1 makes, answered from Modelyard's own catalogue in
 * the Hub's response shapes (so the gateway works offline for every model the catalogue knows):
 *   GET https://huggingface.co/api/models/<id>?expand[]=inferenceProviderMapping
 *   GET https://huggingface.co/api/models/<id>?expand[]=pipeline_tag
 *   GET https://huggingface.co/api/tasks
 * Minimal on purpose: only the fields the library reads, plus `id`. The public Hub-shaped API
 * (/api/models/<id>) is a separate, fuller serialisation.
 */
import { INFERENCE_PROVIDERS, type InferenceProvider } from "@huggingface/inference";
import { type CatalogModel, type ProviderMapping, ownPipelineTag } from "#app/catalog/model-record.ts";
import { type HubProviderEntry, toHubProviderMapping } from "#app/catalog/hub-api.ts";
import { hubError } from "#app/utils/http.server.ts";

export interface GatewayCatalog {
  getModel(id: string): Promise<CatalogModel | null>;
  /** The /api/tasks JSON text; throwing here is what "failed to load task definitions" means. */
  tasksPayload(): Promise<string>;
}

const KNOWN_PROVIDERS = new Set<string>(INFERENCE_PROVIDERS);

export function isLibraryProvider(name: string): name is InferenceProvider {
  return KNOWN_PROVIDERS.has(name);
}

/** The mappings 3.13.1 can use: providers it knows, in catalogue (Hub) order. */
export function libraryMappings(model: CatalogModel): Array<ProviderMapping & { provider: InferenceProvider }> {
  return model.inferenceProviderMapping.filter((m): m is ProviderMapping & { provider: InferenceProvider } => isLibraryProvider(m.provider));
}

/** `inferenceProviderMapping` as the Hub returns it, of the providers 3.13.1 can call. */
export function hubProviderMapping(model: CatalogModel): Record<string, HubProviderEntry> {
  return toHubProviderMapping(libraryMappings(model));
}

/**
 * Answers one Hub URL, or returns null when the URL is not a lookup the library makes (the caller
 * then refuses it: the gateway has no other business with the Hub).
 */
export async function answerHubLookup(url: URL, catalog: GatewayCatalog): Promise<Response | null> {
  if (url.pathname === "/api/tasks") {
    let payload: string;
    try {
      payload = await catalog.tasksPayload();
    } catch {
      return hubError(500, "Task definitions are unavailable");
    }
    return new Response(payload, { status: 200, headers: { "Content-Type": "application/json; charset=utf-8" } });
  }
  const prefix = "/api/models/";
  if (!url.pathname.startsWith(prefix)) return null;
  let id: string;
  try {
    id = decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    return hubError(400, "Invalid model id");
  }
  const expand = url.searchParams.getAll("expand[]");
  const model = await catalog.getModel(id);
  if (!model) return hubError(404, "Repository not found");
  const body: Record<string, unknown> = { _id: model.id, id: model.id };
  if (expand.length === 0 || expand.includes("inferenceProviderMapping")) body["inferenceProviderMapping"] = hubProviderMapping(model);
  if (expand.length === 0 || expand.includes("pipeline_tag")) body["pipeline_tag"] = ownPipelineTag(model) ?? undefined;
  return Response.json(body);
}

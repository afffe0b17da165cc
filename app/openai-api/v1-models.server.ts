/**
 * GET /v1/models: the models something configured here can run for a /v1 route: a provider the
 * caller has a credential for (the server's keys, when they may spend them, or their own token),
 * or a configured endpoint. OpenAI's list, extended as Hugging Face's router extends it.
 */
import type { Kysely } from "kysely";
import { listProviderMappedModels, type ProviderMappedModel } from "#app/db/queries/models.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type EnvLike, resolveCredential } from "#app/inference/credentials.server.ts";
import { configuredEndpoints } from "#app/inference/endpoints.server.ts";
import { isLibraryProvider } from "#app/inference/hub-lookups.server.ts";
import { V1_TASKS } from "#app/openai-api/v1-bodies.server.ts";

export interface V1ModelProvider {
  provider: string;
  /** live or staging for a provider mapping (absent when the catalogue did not record it); "endpoint" for a server an admin configured. */
  status?: string;
  task: string | null;
  context_length?: number;
}

export interface V1Model {
  id: string;
  object: "model";
  /** When the model was made, in seconds since the epoch; 0 when the catalogue does not know (OpenAI's type requires a number). */
  created: number;
  owned_by: string;
  architecture: { input_modalities: string[]; output_modalities: string[] };
  providers: V1ModelProvider[];
}

const SERVED_TASKS = new Set(Object.values(V1_TASKS));

const MODALITIES: Record<string, { input: string[]; output: string[] }> = {
  conversational: { input: ["text"], output: ["text"] },
  "text-generation": { input: ["text"], output: ["text"] },
  "feature-extraction": { input: ["text"], output: ["embeddings"] },
  "text-to-image": { input: ["text"], output: ["image"] },
  "automatic-speech-recognition": { input: ["audio"], output: ["text"] },
  "text-to-speech": { input: ["text"], output: ["audio"] },
};

/** The context length a config states, where it states one. */
function contextLength(config: Record<string, unknown> | null): number | undefined {
  if (!config) return undefined;
  const text = typeof config["text_config"] === "object" && config["text_config"] !== null ? (config["text_config"] as Record<string, unknown>) : {};
  for (const v of [config["max_position_embeddings"], config["n_ctx"], config["seq_length"], text["max_position_embeddings"]]) {
    if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

function entryFor(m: ProviderMappedModel | undefined, id: string): V1Model {
  const created = m?.createdAt ? Math.floor(Date.parse(m.createdAt) / 1000) : NaN;
  return {
    id,
    object: "model",
    created: Number.isFinite(created) && created > 0 ? created : 0,
    owned_by: m?.author ?? id.split("/")[0] ?? id,
    architecture: { input_modalities: [], output_modalities: [] },
    providers: [],
  };
}

function addModalities(model: V1Model, task: string | null, pipelineTag: string | null): void {
  const m = task ? MODALITIES[task] : undefined;
  const input = [...(m?.input ?? ["text"]), ...(task === "conversational" && pipelineTag === "image-text-to-text" ? ["image"] : [])];
  for (const x of input) if (!model.architecture.input_modalities.includes(x)) model.architecture.input_modalities.push(x);
  for (const x of m?.output ?? ["text"]) if (!model.architecture.output_modalities.includes(x)) model.architecture.output_modalities.push(x);
}

export async function listV1Models(db: Kysely<Database>, env: EnvLike, access: { serverKeys: boolean; visitorToken: string | undefined }): Promise<V1Model[]> {
  const mapped = await listProviderMappedModels(db);
  const byId = new Map<string, V1Model>();
  const records = new Map(mapped.map((m) => [m.id, m]));
  for (const m of mapped) {
    for (const mapping of m.mappings) {
      if (!SERVED_TASKS.has(mapping.task) || !isLibraryProvider(mapping.provider)) continue;
      if (resolveCredential({ visitorToken: access.visitorToken, provider: mapping.provider, env, serverKeys: access.serverKeys }).source === "none") continue;
      const entry = byId.get(m.id) ?? entryFor(m, m.id);
      const length = contextLength(m.config);
      entry.providers.push({ provider: mapping.provider, ...(mapping.status ? { status: mapping.status } : {}), task: mapping.task, ...(length ? { context_length: length } : {}) });
      addModalities(entry, mapping.task, m.pipelineTag);
      byId.set(m.id, entry);
    }
  }
  let endpoints: ReturnType<typeof configuredEndpoints> = [];
  try {
    endpoints = access.serverKeys ? configuredEndpoints(env) : [];
  } catch {
    // A misconfigured MODELYARD_ENDPOINTS is reported where an endpoint is used; the list goes on without them.
  }
  for (const endpoint of endpoints) {
    for (const id of endpoint.models.keys()) {
      const record = records.get(id);
      const entry = byId.get(id) ?? entryFor(record, id);
      // An endpoint speaks OpenAI's chat API; its model's other tasks are not known here.
      entry.providers.push({ provider: endpoint.name, status: "endpoint", task: "conversational" });
      addModalities(entry, "conversational", record?.pipelineTag ?? null);
      byId.set(id, entry);
    }
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Which provider serves a /v1 call, and which ones to fall back to (ADR 0040). A named provider or
 * endpoint is used alone, staging included. Otherwise the live providers mapped for the route's
 * task, and the configured endpoints that serve the model, are ranked by the routing policy:
 * "fastest" orders them by their median time to first token over the last day's usage records
 * (those with none come after, in the catalogue's order); "listed" keeps the catalogue's order.
 * Providers the caller has no credential for are left out when any other has one.
 */
import type { Kysely } from "kysely";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { providerSpeeds } from "#app/db/queries/usage.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type EnvLike, resolveCredential } from "#app/inference/credentials.server.ts";
import { configuredEndpoints, endpointsForModel } from "#app/inference/endpoints.server.ts";
import { GatewayError } from "#app/inference/errors.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";
import { libraryMappings } from "#app/inference/hub-lookups.server.ts";
import type { InferenceRequest } from "#app/inference/request-schema.ts";
import type { ModelRef } from "#app/openai-api/model-ref.ts";
import { V1_TASKS, type V1Kind } from "#app/openai-api/v1-bodies.server.ts";

export type RoutingPolicy = "fastest" | "listed";

export interface PlanInput {
  kind: V1Kind;
  ref: ModelRef;
  body: InferenceRequest;
  db: Kysely<Database>;
  catalog: GatewayCatalog;
  env: EnvLike;
  serverKeys: boolean;
  visitorToken: string | undefined;
  policy: RoutingPolicy;
  /** How many providers after the first may be tried. */
  failover: number;
  now?: number;
}

const DAY_MS = 86_400_000;

function notFound(message: string): GatewayError {
  return new GatewayError({ status: 404, code: "model_not_found", message, field: "model" });
}

/**
 * The providers 3.13.1 sends text generation in TGI's dialect, which alone takes TGI's own
 * parameters: the OpenAI-style completion providers (Featherless, Hyperbolic, OVHcloud, Together…)
 * get those OpenAI also has under OpenAI's names (task-calls.server.ts), but none of them reads
 * `do_sample`, and they would drop it. Greedy decoding
 * (/v1/completions' temperature 0, sent as do_sample false) so goes only to these, or is refused,
 * rather than be sampled at a provider's own default.
 */
const TGI_PROVIDERS: ReadonlySet<string> = new Set(["hf-inference"]);
const isGreedy = (body: InferenceRequest) => body.task === "text-generation" && body.parameters?.["do_sample"] === false;

/**
 * The call for one provider. TGI says why it stopped (`details.finish_reason`: "length" at
 * max_new_tokens), whole or streamed, only when asked with `details: true`, and /v1/completions
 * has no other source for OpenAI's finish_reason.
 */
function callOn(body: InferenceRequest, provider: string): InferenceRequest {
  if (body.task !== "text-generation" || !TGI_PROVIDERS.has(provider)) return { ...body, provider };
  return { ...body, provider, parameters: { ...body.parameters, details: true } };
}

function greedyRefusal(where: string): GatewayError {
  return new GatewayError({
    status: 400,
    code: "invalid_request",
    message: `temperature 0 (greedy decoding) is sent as TGI's do_sample: false, which only hf-inference takes; ${where}. Send a temperature above 0, or pick the model's hf-inference mapping.`,
    field: "parameters.temperature",
  });
}

/** Routes one model to a served name's endpoint, or names why nothing here serves it. */
function servedBy(env: EnvLike, name: string, body: InferenceRequest): InferenceRequest[] {
  for (const endpoint of configuredEndpoints(env)) {
    for (const [id, served] of endpoint.models) if (served === name || id === name) return [{ ...body, model: id, endpoint: endpoint.name }];
  }
  throw notFound(`No configured endpoint serves a model named "${name}". Name a catalogue model as org/name, or ask GET /v1/models what runs here.`);
}

export async function planV1Call(input: PlanInput): Promise<InferenceRequest[]> {
  const { ref, body, env } = input;
  if (ref.kind === "served") return servedBy(env, ref.name, body);
  const task = V1_TASKS[input.kind];
  const model = await input.catalog.getModel(ref.id);
  const endpoints = endpointsForModel(env, ref.id);
  if (!model && endpoints.length === 0) throw notFound(`The model '${ref.id}' does not exist in this catalogue.`);
  if (ref.choice.kind === "named") {
    const name = ref.choice.name;
    if (endpoints.some((e) => e.name === name)) return [{ ...body, endpoint: name }];
    const mapping = model ? libraryMappings(model).find((m) => m.provider === name) : undefined;
    if (!mapping) throw notFound(`${ref.id} has no provider or endpoint called "${name}" here. ${servingSummary(model, endpoints.map((e) => e.name), task)}`);
    if (mapping.task !== task) throw notFound(`${name} serves ${ref.id} for ${mapping.task}, not ${task}; use the route for that task.`);
    if (isGreedy(body) && !TGI_PROVIDERS.has(name)) throw greedyRefusal(`${name} would sample at its own temperature`);
    return [callOn(body, name)];
  }
  const greedy = isGreedy(body);
  const live = model ? libraryMappings(model).filter((m) => m.task === task && m.status !== "staging" && (!greedy || TGI_PROVIDERS.has(m.provider))) : [];
  type Candidate = { request: InferenceRequest; key: string; usable: boolean };
  const candidates: Candidate[] = [
    ...live.map((m) => ({
      request: callOn(body, m.provider),
      key: m.provider,
      usable: resolveCredential({ visitorToken: input.visitorToken, provider: m.provider, env, serverKeys: input.serverKeys }).source !== "none",
    })),
    ...(greedy ? [] : endpoints.map((e) => ({ request: { ...body, endpoint: e.name }, key: `endpoint:${e.name}`, usable: input.serverKeys }))),
  ];
  if (candidates.length === 0 && greedy) throw greedyRefusal(`${ref.id} has no hf-inference mapping here`);
  if (candidates.length === 0) throw notFound(`Nothing here serves ${ref.id} for ${task}. ${servingSummary(model, [], task)}`);
  if (input.policy === "fastest" || ref.choice.kind === "fastest") {
    const since = new Date((input.now ?? Date.now()) - DAY_MS).toISOString();
    const speeds = await providerSpeeds(input.db, ref.id, since);
    const rank = (c: Candidate) => speeds.get(c.key)?.medianTtftMs ?? Number.POSITIVE_INFINITY;
    // A stable sort: providers without records keep the catalogue's order, after the measured ones.
    candidates.sort((a, b) => rank(a) - rank(b));
  }
  const usable = candidates.filter((c) => c.usable);
  // With no credential for any, the first still goes, so the caller hears what is missing.
  const chosen = usable.length > 0 ? usable : candidates.slice(0, 1);
  return chosen.slice(0, 1 + Math.max(0, input.failover)).map((c) => c.request);
}

function servingSummary(model: CatalogModel | null, endpointNames: string[], task: string): string {
  const served = [...(model ? libraryMappings(model).map((m) => `${m.provider} (${m.task}${m.status === "staging" ? ", staging" : ""})`) : []), ...endpointNames.map((n) => `${n} (endpoint)`)];
  return served.length > 0 ? `It is served by: ${served.join(", ")}.` : `No provider maps it for ${task}.`;
}

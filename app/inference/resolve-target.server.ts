/**
 * The gateway's second step: where a parsed request goes. A configured endpoint (with its own
 * key) or a provider (named, or "auto" resolved from the catalogue's mappings), the task, the
 * credential, and the task's parameters checked against its spec. Refusals are GatewayErrors.
 */
import { INFERENCE_PROVIDERS } from "@huggingface/inference";
import { taskOf } from "#app/catalog/chat-model.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { serverHoldsKeys } from "#app/auth/auth-config.server.ts";
import { checkCostCaps, type CostCaps, withTokenBound } from "#app/inference/cost-caps.server.ts";
import { type Credential, type EnvLike, resolveCredential } from "#app/inference/credentials.server.ts";
import { configuredEndpoints, EndpointConfigError, findEndpoint } from "#app/inference/endpoints.server.ts";
import { GatewayError } from "#app/inference/errors.server.ts";
import { type GatewayCatalog, libraryMappings } from "#app/inference/hub-lookups.server.ts";
import type { UploadedFile } from "#app/inference/multipart.server.ts";
import type { InferenceRequest } from "#app/inference/request-schema.ts";
import { GATEWAY_TASKS, isProviderOrPolicy, STREAMING_TASKS, type TaskCall, unknownProvider, unknownTask } from "#app/inference/run-task.server.ts";
import { prepareTaskInputs } from "#app/inference/task-inputs.server.ts";
import { checkTaskParameters } from "#app/inference/task-parameters.server.ts";
import type { GatewayLabelSets } from "#app/utils/metrics.server.ts";

/** A request resolved to one library call, with what the log and the answer say about it. */
export interface InferenceTarget {
  call: TaskCall;
  task: string | null;
  /** The model id as the visitor asked for it (an endpoint may serve it under another name). */
  requestedModel: string | null;
  /** The provider the call goes to, once "auto" is resolved; null for an endpoint without one. */
  provider: string | null;
  /** `endpoint:<name>` or the provider, as the X-Modelyard-Provider header and the log show it. */
  providerLabel: string;
  credential: Credential;
  /** False for endpoints: they may be open, so a call without a key is let through. */
  requireCredential: boolean;
  stream: boolean;
}

export interface ResolveDeps {
  catalog: GatewayCatalog;
  env: EnvLike;
  /** Whether the caller may spend the server's keys (app/auth/access.server.ts); a visitor's own token is always used. */
  serverKeys: boolean;
  caps: CostCaps;
  /** Organisations `billTo` may name on the server's keys (MODELYARD_BILL_TO_ALLOWED). */
  billToAllowed: readonly string[];
}

/** The task to run: the body's, else chat when messages are given, else the model's pipeline tag. */
function chooseTask(body: InferenceRequest, model: CatalogModel | null): string | null {
  if (body.task) return body.task === "text-generation" && body.messages ? "conversational" : body.task;
  if (body.messages) return "conversational";
  return model ? taskOf(model) : null;
}

/** "auto" resolved from the catalogue: the first mapping for the task, preferring providers we hold a key for. */
function chooseProvider(model: CatalogModel, task: string | null, hasKey: (provider: string) => boolean): string | null {
  // Live mappings before staging ones ("meant for test purposes only"), catalogue order otherwise.
  const candidates = libraryMappings(model)
    .filter((m) => task === null || m.task === task)
    .sort((a, b) => Number(a.status === "staging") - Number(b.status === "staging"));
  const withKey = candidates.find((m) => hasKey(m.provider));
  return (withKey ?? candidates[0])?.provider ?? null;
}

function signInRequired(why: string): GatewayError {
  return new GatewayError({
    status: 401,
    code: "sign_in_required",
    message: `${why}: sign in, send a Modelyard API token (Authorization: Bearer myd_…), or send your own provider token in X-Provider-Token.`,
    hint: "Sign in to run this on the server's keys, or add your own provider token in Settings.",
    field: null,
  });
}

interface Route {
  model: string | undefined;
  provider: string | undefined;
  endpointUrl: string | undefined;
  credential: Credential;
  requireCredential: boolean;
  catalogModel: CatalogModel | null;
  providerLabel: string;
}

async function routeToEndpoint(body: InferenceRequest, name: string, deps: ResolveDeps): Promise<Route> {
  let endpoint;
  try {
    endpoint = findEndpoint(deps.env, name);
  } catch (error) {
    const message = error instanceof EndpointConfigError ? error.message : "MODELYARD_ENDPOINTS could not be read.";
    throw new GatewayError({ status: 503, code: "endpoints_misconfigured", message });
  }
  if (endpoint && !deps.serverKeys) throw signInRequired(`The endpoint "${endpoint.name}" is this server's own`);
  if (!endpoint) {
    throw new GatewayError({ status: 400, code: "unknown_endpoint", message: `No endpoint named "${name}" is configured on this server.`, hint: "Pick a provider or endpoint from the list.", field: "endpoint" });
  }
  let model = body.model;
  let catalogModel: CatalogModel | null = null;
  if (body.model !== undefined) {
    const served = endpoint.models.get(body.model);
    if (served === undefined) {
      throw new GatewayError({ status: 400, code: "invalid_request", message: `The endpoint "${endpoint.name}" does not serve ${body.model}.`, field: "model" });
    }
    model = served;
    catalogModel = await deps.catalog.getModel(body.model);
  }
  const key = endpoint.keyEnv ? deps.env[endpoint.keyEnv]?.trim() : undefined;
  return {
    model,
    // An endpoint call names the provider only if the body did: the library then speaks its dialect.
    provider: body.provider,
    endpointUrl: endpoint.url,
    credential: key ? { token: key, source: "endpoint-key" } : { token: undefined, source: "none" },
    requireCredential: false,
    catalogModel,
    providerLabel: `endpoint:${endpoint.name}`,
  };
}

async function routeToProvider(body: InferenceRequest, visitorToken: string | undefined, deps: ResolveDeps): Promise<Route> {
  // The schema holds model to the Hub's id grammar, so no URL or path reaches a lookup.
  const catalogModel = body.model !== undefined ? await deps.catalog.getModel(body.model) : null;
  let provider = body.provider;
  if ((provider === undefined || provider === "auto") && catalogModel) {
    const picked = chooseProvider(catalogModel, chooseTask(body, catalogModel), (p) => resolveCredential({ visitorToken, provider: p, env: deps.env, serverKeys: deps.serverKeys }).source !== "none");
    if (picked) provider = picked;
  }
  const credential = resolveCredential({ visitorToken, provider: provider === "auto" ? undefined : provider, env: deps.env, serverKeys: deps.serverKeys });
  // The server has a key it may not spend for this caller: say so, not "no token is available".
  if (credential.source === "none" && !deps.serverKeys && serverHoldsKeys(deps.env)) throw signInRequired("This server's keys are for its members");
  return {
    model: body.model,
    provider,
    endpointUrl: undefined,
    credential,
    requireCredential: true,
    catalogModel,
    providerLabel: provider ?? "auto",
  };
}

/** The configured endpoints' names; none when MODELYARD_ENDPOINTS is invalid (a call to one says why). */
function endpointNames(env: EnvLike): string[] {
  try {
    return configuredEndpoints(env).map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * What a gateway call's metrics may name (ADR 0041): "auto", the library's providers, the
 * configured endpoints as `endpoint:<name>`, and the tasks the gateway runs.
 */
export function gatewayLabelSets(env: EnvLike): GatewayLabelSets {
  return { providers: new Set(["auto", ...INFERENCE_PROVIDERS, ...endpointNames(env).map((n) => `endpoint:${n}`)]), tasks: GATEWAY_TASKS };
}

/** `file` is the multipart upload, checked against the task once the task is known. */
export async function resolveTarget(body: InferenceRequest, visitorToken: string | undefined, deps: ResolveDeps, file: UploadedFile | null = null): Promise<InferenceTarget> {
  // Refused before anything else: a provider or task names a label of the gateway's metrics, and
  // any string a visitor sent became one (a series each, kept for the process's life).
  if (body.provider !== undefined && !isProviderOrPolicy(body.provider)) throw unknownProvider(body.provider, endpointNames(deps.env));
  if (body.task !== undefined && !GATEWAY_TASKS.has(body.task)) throw unknownTask(body.task);
  const route = body.endpoint !== undefined ? await routeToEndpoint(body, body.endpoint, deps) : await routeToProvider(body, visitorToken, deps);
  // An endpoint takes the body's task as given: text-generation with messages is not turned into chat.
  const task =
    body.endpoint !== undefined ? (body.task ?? (body.messages ? "conversational" : route.catalogModel ? taskOf(route.catalogModel) : null)) : chooseTask(body, route.catalogModel);
  const stream = body.stream === true;
  if (stream && task !== null && !STREAMING_TASKS.has(task)) {
    throw new GatewayError({ status: 400, code: "invalid_request", message: `stream: true is only for the conversational and text-generation tasks, not "${task}".`, field: "stream" });
  }
  const parameterProblem = checkTaskParameters(task, body.parameters);
  if (parameterProblem) throw new GatewayError({ status: 400, code: "invalid_request", message: parameterProblem.message, field: parameterProblem.field });
  checkCostCaps(task, body.parameters, body.inputs, deps.caps);
  const serverPays = route.credential.source !== "visitor" && route.credential.source !== "none";
  if (body.billTo !== undefined && serverPays && !deps.billToAllowed.includes(body.billTo.toLowerCase())) {
    throw new GatewayError({
      status: 403,
      code: "bill_to_not_allowed",
      message: `billTo "${body.billTo}" is not allowed on this server's keys; an admin can allow it with MODELYARD_BILL_TO_ALLOWED.`,
      hint: "Leave billTo out, or send your own provider token in X-Provider-Token.",
      field: "billTo",
    });
  }
  const inputs = prepareTaskInputs(task, body.inputs, file);
  return {
    call: {
      task,
      model: route.model,
      provider: route.provider,
      endpointUrl: route.endpointUrl,
      accessToken: route.credential.token,
      inputs,
      messages: body.messages,
      parameters: serverPays ? withTokenBound(task, body.parameters, deps.caps) : body.parameters,
      billTo: body.billTo,
    },
    task,
    requestedModel: body.model ?? null,
    provider: route.provider ?? null,
    providerLabel: route.providerLabel,
    credential: route.credential,
    requireCredential: route.requireCredential,
    stream,
  };
}

/**
 * Admin-configured OpenAI-compatible servers (llama.cpp server, Ollama, vLLM, TGI), from
 * MODELYARD_ENDPOINTS. Each one shows up as an extra "provider" for the models it serves and is
 * called through the library's `endpointUrl`. Visitors only ever name an endpoint; the URL comes
 * from this configuration, so the server never fetches a URL a visitor typed.
 *
 * MODELYARD_ENDPOINTS='[{"name":"lab-llama","label":"llama.cpp (lab)","url":"http://10.0.0.5:8080/v1",
 *   "models":["meta-llama/Llama-3.2-1B-Instruct", {"id":"Qwen/Qwen2.5-7B-Instruct","served":"qwen2.5:7b"}],
 *   "keyEnv":"MODELYARD_ENDPOINT_KEY_LAB"}]'
 */
import { z } from "zod";
import { modelIdSchema } from "#app/catalog/model-id.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";

// The id is the catalogue's (the Hub grammar, as every request's `model` is checked against);
// a server-side name that differs, such as Ollama's `llama3.1:8b`, goes in `served`.
const endpointModelSchema = z
  .union([z.string().min(1).max(300), z.strictObject({ id: z.string().min(1).max(300), served: z.string().min(1).max(300) })])
  .superRefine((entry, ctx) => {
    const id = typeof entry === "string" ? entry : entry.id;
    const checked = modelIdSchema.safeParse(id);
    if (!checked.success) {
      ctx.addIssue({
        code: "custom",
        message: `"${id}" is not a catalogue id (${checked.error.issues[0]?.message ?? "bad id"}); name the model as {"id": "org/name", "served": "${id}"}`,
      });
    }
  });

const endpointSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "names use letters, digits, . _ - (at most 100)"),
  label: z.string().min(1).max(100).optional(),
  url: z
    .url({ protocol: /^https?$/ })
    .refine((u) => {
      // zod runs this after a failed url check too; that check's issue is the one to report.
      if (!URL.canParse(u)) return true;
      const parsed = new URL(u);
      return parsed.username === "" && parsed.password === "";
    }, "put credentials in keyEnv, not in the URL"),
  models: z.array(endpointModelSchema).min(1).max(1000),
  keyEnv: z
    .string()
    .regex(/^MODELYARD_ENDPOINT_KEY_[A-Z0-9_]+$/, "keyEnv must name a MODELYARD_ENDPOINT_KEY_* variable")
    .optional(),
});

export interface ConfiguredEndpoint {
  name: string;
  label: string;
  url: string;
  /** Catalogue model id -> the model name the server expects in the request body. */
  models: Map<string, string>;
  keyEnv: string | null;
}

export class EndpointConfigError extends Error {
  override name = "EndpointConfigError";
}

const cache = new Map<string, ConfiguredEndpoint[]>();

/** Parsed MODELYARD_ENDPOINTS; throws EndpointConfigError naming the variable when it is invalid. */
export function configuredEndpoints(env: EnvLike): ConfiguredEndpoint[] {
  const raw = env["MODELYARD_ENDPOINTS"]?.trim() ?? "";
  if (raw === "") return [];
  const hit = cache.get(raw);
  if (hit) return hit;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new EndpointConfigError("MODELYARD_ENDPOINTS is not valid JSON; expected an array of {name, url, models}.");
  }
  const parsed = z.array(endpointSchema).max(100).safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new EndpointConfigError(`MODELYARD_ENDPOINTS is invalid at ${first?.path.join(".") ?? "(root)"}: ${first?.message ?? "unknown problem"}.`);
  }
  const seen = new Set<string>();
  const out: ConfiguredEndpoint[] = [];
  for (const e of parsed.data) {
    if (seen.has(e.name)) throw new EndpointConfigError(`MODELYARD_ENDPOINTS names "${e.name}" twice.`);
    seen.add(e.name);
    out.push({
      name: e.name,
      label: e.label ?? e.name,
      url: e.url,
      models: new Map(e.models.map((m) => (typeof m === "string" ? [m, m] : [m.id, m.served]))),
      keyEnv: e.keyEnv ?? null,
    });
  }
  cache.set(raw, out);
  return out;
}

export function findEndpoint(env: EnvLike, name: string): ConfiguredEndpoint | null {
  return configuredEndpoints(env).find((e) => e.name === name) ?? null;
}

/** The endpoints that serve a catalogue model, for the demo's provider picker. */
export function endpointsForModel(env: EnvLike, modelId: string): ConfiguredEndpoint[] {
  try {
    return configuredEndpoints(env).filter((e) => e.models.has(modelId));
  } catch {
    return [];
  }
}

/** Origins of configured endpoints: the only non-provider hosts the gateway's fetch may reach. */
export function endpointOrigins(env: EnvLike): Set<string> {
  try {
    return new Set(configuredEndpoints(env).map((e) => new URL(e.url).origin));
  } catch {
    return new Set();
  }
}

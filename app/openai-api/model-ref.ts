import { checkModelId } from "#app/catalog/model-id.ts";

/**
 * What a /v1 request's `model` names: a catalogue model, with how to choose its provider, or the
 * name a configured endpoint serves a model under (Ollama's `llama3.1:8b`, say).
 *   org/name            the admin's routing policy (ADR 0040)
 *   org/name:fastest    the live provider with the lowest recent time to first token
 *   org/name:<provider> that provider (staging ones too), or that configured endpoint
 */
export type ModelRef =
  | { kind: "catalogue"; id: string; choice: { kind: "policy" } | { kind: "fastest" } | { kind: "named"; name: string } }
  | { kind: "served"; name: string };

export type ModelRefResult = { ok: true; ref: ModelRef } | { ok: false; message: string };

const SUFFIX = /^[A-Za-z0-9._-]{1,100}$/;

export function parseModelRef(raw: string): ModelRefResult {
  const model = raw.trim();
  if (model === "") return { ok: false, message: "`model` is empty: name a model as org/name, org/name:<provider> or org/name:fastest." };
  if (!model.includes("/")) {
    if (model.length > 300 || /[\s<>"'`]/.test(model)) return { ok: false, message: `\`model\` "${model.slice(0, 80)}" is not a model id (org/name) or a configured endpoint's model name.` };
    return { ok: true, ref: { kind: "served", name: model } };
  }
  const slash = model.indexOf("/");
  const colon = model.indexOf(":", slash);
  const id = colon < 0 ? model : model.slice(0, colon);
  const suffix = colon < 0 ? null : model.slice(colon + 1);
  const checked = checkModelId(id);
  if (!checked.ok) {
    const url = /^https?:\/\//i.test(model) ? " A URL is not a model here: an admin configures servers as endpoints (MODELYARD_ENDPOINTS), and you name their models." : "";
    return { ok: false, message: `\`model\` "${id.slice(0, 120)}" is not a model id: ${checked.message}.${url}` };
  }
  if (suffix === null) return { ok: true, ref: { kind: "catalogue", id: checked.id, choice: { kind: "policy" } } };
  if (!SUFFIX.test(suffix)) return { ok: false, message: `\`model\` suffix ":${suffix.slice(0, 60)}" is not a provider or endpoint name; use :fastest or :<provider>, e.g. :together.` };
  if (suffix === "fastest") return { ok: true, ref: { kind: "catalogue", id: checked.id, choice: { kind: "fastest" } } };
  return { ok: true, ref: { kind: "catalogue", id: checked.id, choice: { kind: "named", name: suffix } } };
}

/**
 * Builds ChatDemoInfo for a model: whether the chat demo applies (a conversational model with a
 * provider or configured endpoint), its providers, the chat-template verdict from import, and the
 * parameter defaults from @huggingface/tasks' chat-completion input spec.
 */
import { providerLabel } from "#app/snippets/provider-label.ts";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { z } from "zod";
import { isChatModel, taskOf } from "#app/catalog/chat-model.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import type { ChatDemoInfo, ChatDemoProvider, ChatParameterSpec } from "#app/demos/chat/demo-info.ts";
import { endpointValue } from "#app/demos/chat/demo-info.ts";
import { acceptsImages } from "#app/demos/chat/image-attachments.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";
import { endpointsForModel } from "#app/inference/endpoints.server.ts";
import { libraryMappings } from "#app/inference/hub-lookups.server.ts";

const specProperty = z.looseObject({
  description: z.string().optional(),
  default: z.union([z.string(), z.number()]).optional(),
  example: z.union([z.string(), z.number()]).optional(),
  minimum: z.number().optional(),
});
const specSchema = z.looseObject({ properties: z.looseObject({ temperature: specProperty, max_tokens: specProperty, top_p: specProperty }) });

let parameters: ChatDemoInfo["parameters"] | undefined;

/**
 * Defaults and ranges from the spec: temperature's example (1) and its documented 0–2 range,
 * top_p's example (0.95) within 0–1, and max_tokens' default (1024). The spec gives no upper
 * bound for max_tokens; the demo caps it at 4096.
 */
export function chatParameterSpecs(): ChatDemoInfo["parameters"] {
  if (parameters) return parameters;
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve("@huggingface/tasks/package.json")), "src", "tasks", "chat-completion", "spec", "input.json");
  const spec = specSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
  const p = spec.properties;
  const n = (v: string | number | undefined, fallback: number) => (v === undefined || Number.isNaN(Number(v)) ? fallback : Number(v));
  const firstSentence = (s: string | undefined) => (s ?? "").split("\n")[0]?.trim() ?? "";
  const temperature: ChatParameterSpec = { min: 0, max: 2, step: 0.05, default: n(p.temperature.example, 1), description: firstSentence(p.temperature.description) };
  const topP: ChatParameterSpec = { min: 0, max: 1, step: 0.01, default: n(p.top_p.example, 0.95), description: firstSentence(p.top_p.description) };
  const maxTokens: ChatParameterSpec = { min: Math.max(1, p.max_tokens.minimum ?? 1), max: 4096, step: 1, default: n(p.max_tokens.default, 1024), description: firstSentence(p.max_tokens.description) };
  parameters = { temperature, max_tokens: maxTokens, top_p: topP };
  return parameters;
}

/** The demo for this model, or null when it does not apply (not conversational, or nothing can run it). */
export function chatDemoInfo(model: CatalogModel, env: EnvLike): ChatDemoInfo | null {
  if (!isChatModel(model)) return null;
  const providers: ChatDemoProvider[] = libraryMappings(model)
    .filter((m) => m.task === "conversational")
    .sort((a, b) => Number(a.status === "staging") - Number(b.status === "staging"))
    .map((m) => ({ value: m.provider, label: providerLabel(m.provider, m.status === "staging"), kind: "provider" as const }));
  for (const e of endpointsForModel(env, model.id)) providers.push({ value: endpointValue(e.name), label: e.label, kind: "endpoint" });
  if (providers.length === 0) return null;
  const issue = model.chatTemplateStatus === "error" ? model.chatTemplateIssue : null;
  return {
    modelId: model.id,
    providers,
    templateProblem:
      model.chatTemplateStatus === "error"
        ? { message: issue?.message ?? "The chat template failed validation.", line: issue?.line ?? null, column: issue?.column ?? null, templateName: issue?.templateName ?? null }
        : null,
    parameters: chatParameterSpecs(),
    serverKey: Object.entries(env).some(([k, v]) => (k === "HF_TOKEN" || k.startsWith("MODELYARD_PROVIDER_KEY_")) && (v ?? "").trim() !== ""),
    acceptsImages: acceptsImages(taskOf(model)),
  };
}

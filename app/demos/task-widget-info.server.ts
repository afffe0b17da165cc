/**
 * Builds TaskWidgetInfo for a model: the widget applies when the model's task has one (chat models
 * get the chat demo instead). Providers are the catalogue's mappings for that task that the
 * inference library can call, then the configured endpoints serving the model, as for the chat
 * demo. Inputs, parameters and the example come from the model and @huggingface/tasks.
 */
import { providerLabel } from "#app/snippets/provider-label.ts";
import { TASKS_DATA, type PipelineType } from "@huggingface/tasks";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { taskAssetUrl } from "#app/catalog/task-assets.ts";
import type { ChatDemoProvider } from "#app/demos/chat/demo-info.ts";
import { endpointValue } from "#app/demos/chat/demo-info.ts";
import { toTaskExample } from "#app/demos/shared/default-inputs.ts";
import { defaultInputs } from "#app/demos/shared/starting-inputs.ts";
import type { TaskWidgetInfo } from "#app/demos/shared/widget-info.ts";
import { isWidgetTask } from "#app/tasks/task-records.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";
import { endpointsForModel } from "#app/inference/endpoints.server.ts";
import { libraryMappings } from "#app/inference/hub-lookups.server.ts";
import { describeTaskParameters } from "#app/inference/task-parameters.server.ts";
import { toModelData } from "#app/snippets/model-data.ts";
import { DEFAULT_TASK_ASSET_BASE } from "#app/utils/env.server.ts";
import { providerServesTask, snippetTaskFor } from "#app/snippets/providers.ts";

/** Whether the server holds a key of its own (HF_TOKEN or a provider key). */
export function hasServerKey(env: EnvLike): boolean {
  return Object.entries(env).some(([k, v]) => (k === "HF_TOKEN" || k.startsWith("MODELYARD_PROVIDER_KEY_")) && (v ?? "").trim() !== "");
}

/** Providers and endpoints that can run `task` for the model, live mappings first. */
export function widgetProviders(model: CatalogModel, task: string, env: EnvLike): ChatDemoProvider[] {
  const providers: ChatDemoProvider[] = libraryMappings(model)
    .filter((m) => m.task === task && providerServesTask(m.provider, task))
    .sort((a, b) => Number(a.status === "staging") - Number(b.status === "staging"))
    .map((m) => ({ value: m.provider, label: providerLabel(m.provider, m.status === "staging"), kind: "provider" as const }));
  for (const e of endpointsForModel(env, model.id)) providers.push({ value: endpointValue(e.name), label: e.label, kind: "endpoint" });
  return providers;
}

/**
 * The widget for this model, or null when its task has none (or it is a chat model). A model
 * nothing serves still gets one, with no providers: it shows the task's example instead.
 */
export function taskWidgetInfo(model: CatalogModel, env: EnvLike): TaskWidgetInfo | null {
  const task = snippetTaskFor(model);
  if (!isWidgetTask(task)) return null;
  const data = TASKS_DATA[task as PipelineType];
  // The guide's media come from the same asset host as on the task pages.
  const assetBase = env.MODELYARD_TASK_ASSET_BASE?.trim() || DEFAULT_TASK_ASSET_BASE;
  const example = toTaskExample(data?.demo, (filename) => taskAssetUrl(assetBase, task, filename));
  const maskToken = task === "fill-mask" ? (toModelData(model).mask_token ?? null) : null;
  const { inputs, source } = defaultInputs(task, model.widgetData, example, maskToken);
  return {
    modelId: model.id,
    task,
    taskName: data?.label ?? task,
    providers: widgetProviders(model, task, env),
    inputs,
    inputsSource: source,
    parameters: describeTaskParameters(task),
    example,
    serverKey: hasServerKey(env),
    maskToken,
  };
}

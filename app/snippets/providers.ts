/**
 * Which inference providers the snippets panel can offer: the ones in the model's provider mapping
 * that @huggingface/inference 3.13.1 can generate code for, plus its "auto" policy.
 */
import { type ChatEvidence, isChatModel, taskOf } from "#app/catalog/chat-model.ts";
import type { InferenceProvider, InferenceProviderOrPolicy } from "@huggingface/inference";
import { INFERENCE_PROVIDERS } from "@huggingface/inference";
import type { CatalogModel, ProviderMapping } from "#app/catalog/model-record.ts";
import { pipelineTagFor } from "#app/snippets/model-data.ts";
import { TASK_NAMES, type TaskName, TASKS } from "#app/tasks/task-records.ts";

/** The provider list exactly as the pinned library exports it. */
export const SUPPORTED_PROVIDERS: readonly InferenceProvider[] = INFERENCE_PROVIDERS;

/** The library's policy name that lets the router pick the provider. */
export const AUTO_POLICY = "auto" satisfies InferenceProviderOrPolicy;

/**
 * The tasks each provider helper handles in 3.13.1, from the task records' `providers`. Asking the
 * library for any other pair makes it log a stack trace and return no snippets.
 */
export const PROVIDER_TASKS: Readonly<Record<InferenceProvider, readonly TaskName[]>> = providerTasks();

function providerTasks(): Record<InferenceProvider, TaskName[]> {
  const built: Partial<Record<InferenceProvider, TaskName[]>> = {};
  for (const provider of INFERENCE_PROVIDERS) {
    built[provider] = TASK_NAMES.filter((task) => {
      const providers: readonly InferenceProvider[] = TASKS[task].providers;
      return providers.includes(provider);
    });
  }
  const complete = (b: Partial<Record<InferenceProvider, TaskName[]>>): b is Record<InferenceProvider, TaskName[]> => INFERENCE_PROVIDERS.every((p) => b[p] !== undefined);
  if (!complete(built)) throw new Error("A provider of the library has no entry");
  return built;
}

const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_PROVIDERS);

export function isSupportedProvider(name: string): name is InferenceProvider {
  return SUPPORTED.has(name);
}

export function isProviderOrPolicy(name: string): name is InferenceProviderOrPolicy {
  return name === AUTO_POLICY || isSupportedProvider(name);
}

/**
 * The task the library's snippet generator asks the provider helper for: chat models
 * (isChatModel) are "conversational", everything else goes by pipeline tag
 * (getInferenceSnippets.ts, "hard-code conversational templates").
 */
export function snippetTaskFor(model: ChatEvidence): string | null {
  const pipeline = pipelineTagFor(taskOf(model));
  if (pipeline === undefined) return null;
  return isChatModel(model) ? "conversational" : pipeline;
}

/** Whether 3.13.1 can generate code for this provider (or "auto", which uses hf-inference's helper). */
export function providerServesTask(provider: InferenceProviderOrPolicy, task: string | null): boolean {
  if (task === null) return false;
  const helperTasks: readonly string[] = PROVIDER_TASKS[provider === AUTO_POLICY ? "hf-inference" : provider];
  return helperTasks.includes(task);
}

/** Mapping entries the library knows the provider of, in the catalogue's order, one per provider. */
export function supportedMappings(model: CatalogModel): ProviderMapping[] {
  const seen = new Set<string>();
  const mappings: ProviderMapping[] = [];
  for (const mapping of model.inferenceProviderMapping) {
    if (!isSupportedProvider(mapping.provider) || seen.has(mapping.provider)) continue;
    seen.add(mapping.provider);
    mappings.push(mapping);
  }
  return mappings;
}

/**
 * Provider selector options: "auto" first (when its hf-inference helper handles the task), then
 * the mapped providers 3.13.1 knows and can serve this task with. Empty when there are none; the
 * page then shows only library and local-app code, with a note.
 */
export function supportedProvidersFor(model: CatalogModel): InferenceProviderOrPolicy[] {
  const task = snippetTaskFor(model);
  const providers = supportedMappings(model)
    .map((mapping) => mapping.provider)
    .filter(isSupportedProvider)
    .filter((provider) => providerServesTask(provider, task));
  if (providers.length === 0) return [];
  return providerServesTask(AUTO_POLICY, task) ? [AUTO_POLICY, ...providers] : providers;
}

/**
 * Providers whose mapping for the model is "staging" (the Hub's "meant for test purposes only"),
 * so every list that offers them can say so.
 */
export function stagingProvidersFor(model: Pick<CatalogModel, "inferenceProviderMapping">): string[] {
  return model.inferenceProviderMapping.filter((m) => m.status === "staging").map((m) => m.provider);
}

/** Mapped providers the panel cannot offer (unknown to 3.13.1, or not for this task), for a note. */
export function unsupportedProvidersFor(model: CatalogModel): string[] {
  const offered: ReadonlySet<string> = new Set(supportedProvidersFor(model));
  return [...new Set(model.inferenceProviderMapping.map((m) => m.provider))].filter((p) => !offered.has(p));
}

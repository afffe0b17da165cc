/**
 * /compare on the server: the URL's columns resolved against the catalogue (each column a model
 * and a provider or endpoint that serves the task), with a code snippet per column, and the
 * catalogue search that offers new columns (only models something here can run the task with).
 */
import { taskOf } from "#app/catalog/chat-model.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { emptyFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import type { CompareCandidate, CompareCandidates, CompareColumnInfo, CompareInfo } from "#app/compare/compare-info.ts";
import { type ColumnSpec, parseCompareSetup } from "#app/compare/compare-setup.ts";
import { COMPARE_TASKS, type CompareTask } from "#app/compare/compare-tasks.ts";
import { isWidgetTask } from "#app/tasks/task-records.ts";
import { modelyardVersion } from "#app/compare/version.server.ts";
import { TASKS_DATA } from "@huggingface/tasks";
import { chatParameterSpecs } from "#app/demos/chat/demo-info.server.ts";
import { EMPTY_INPUTS, toTaskExample } from "#app/demos/shared/default-inputs.ts";
import { defaultInputs } from "#app/demos/shared/starting-inputs.ts";
import type { WidgetInputs } from "#app/demos/shared/widget-info.ts";
import { hasServerKey, widgetProviders } from "#app/demos/task-widget-info.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { checkModelId } from "#app/catalog/model-id.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";
import { readGatewayConfig } from "#app/inference/gateway-config.server.ts";
import { getInferenceSnippetsFor } from "#app/snippets/inference-snippets.ts";
import { toModelData } from "#app/snippets/model-data.ts";
import { describeTaskParameters } from "#app/inference/task-parameters.server.ts";

/** Parameters the shared input form sets itself (buildCompareRequest), as the widgets keep them out of their parameter forms. */
const INPUT_PARAMETERS: ReadonlySet<string> = new Set(["candidate_labels", "prompt"]);

/** The providers and endpoints that can run `task` for the model (the widgets' own list). */
export function columnChoices(model: CatalogModel, task: CompareTask, env: EnvLike): Array<{ route: string; label: string }> {
  const chat = task === "text-generation";
  // Chat goes by the providers' conversational mappings (many mapped models carry no tags);
  // configured endpoints are OpenAI-compatible chat servers, so they join chat comparisons only.
  if (!chat && taskOf(model) !== COMPARE_TASKS[task].mappingTask) return [];
  return widgetProviders(model, COMPARE_TASKS[task].mappingTask, env)
    .filter((p) => chat || p.kind === "provider")
    .map((p) => ({ route: p.value, label: p.kind === "endpoint" ? `${p.label} (endpoint)` : p.label }));
}

// A type, not an interface, so it meets the snippet options' string-keyed parameters.
export type ChatSnippetParameters = { temperature: number; max_tokens: number; top_p: number };

/**
 * A chat column's snippet with the parameters it ran with (the shared ones and its overrides),
 * as a saved session holds it; null when the column cannot run or the library has no snippet.
 */
export async function columnSnippet(task: CompareTask, column: ColumnSpec, parameters: ChatSnippetParameters, env: EnvLike): Promise<CompareColumnInfo["snippet"]> {
  const model = await getModelById(getDb().db, column.modelId);
  if (!model || !columnChoices(model, task, env).some((c) => c.route === column.route)) return null;
  return snippetFor(model, task, column.route, task === "text-generation" ? parameters : undefined);
}

/** The JavaScript snippet for a provider column, with the placeholder token; null for endpoints. */
function snippetFor(model: CatalogModel, task: CompareTask, route: string, parameters?: ChatSnippetParameters): CompareColumnInfo["snippet"] {
  if (route.startsWith("endpoint:")) return null;
  const chat = task === "text-generation";
  const p = chatParameterSpecs();
  try {
    const result = getInferenceSnippetsFor(model, {
      provider: route,
      streaming: chat,
      ...(chat ? { parameters: parameters ?? { temperature: p.temperature.default, max_tokens: p.max_tokens.default, top_p: p.top_p.default } } : {}),
    });
    const js = result.languages.find((l) => l.language === "js");
    const client = js?.clients.find((c) => c.client === "huggingface.js") ?? js?.clients[0];
    return client ? { language: "js", client: client.client, code: client.content } : null;
  } catch {
    return null;
  }
}

/**
 * The shared input's starting values, as the task's widget would start: the first column's model's
 * own examples when it has them, else the task guide's demo. Chat starts empty.
 */
function startingInputs(task: CompareTask, firstModel: CatalogModel | null): WidgetInputs {
  const pipeline = COMPARE_TASKS[task].mappingTask;
  if (!isWidgetTask(pipeline)) return EMPTY_INPUTS;
  const example = toTaskExample(TASKS_DATA[pipeline]?.demo);
  const maskToken = task === "fill-mask" ? (firstModel ? (toModelData(firstModel).mask_token ?? null) : null) : null;
  return defaultInputs(pipeline, firstModel?.widgetData ?? null, example, maskToken).inputs;
}

export async function loadCompare(url: URL, env: EnvLike): Promise<CompareInfo> {
  const { setup, problems } = parseCompareSetup(url.searchParams);
  const db = getDb().db;
  const models = await Promise.all(setup.columns.map(({ modelId }) => getModelById(db, modelId)));
  const columns = await Promise.all(
    setup.columns.map(async ({ modelId, route }, i): Promise<CompareColumnInfo> => {
      const model = models[i];
      const base = { modelId, route, label: route.startsWith("endpoint:") ? route.slice("endpoint:".length) : route, snippet: null };
      if (!model) return { ...base, problem: `There is no model “${modelId}” in this catalogue.` };
      const choices = columnChoices(model, setup.task, env);
      const choice = choices.find((c) => c.route === route);
      if (!choice) {
        const offered = choices.map((c) => c.route).join(", ");
        return { ...base, problem: `${route} does not serve ${model.id} for ${COMPARE_TASKS[setup.task].label.toLowerCase()} here.${offered ? ` Available: ${offered}.` : ""}` };
      }
      return { ...base, label: choice.label, problem: null, snippet: snippetFor(model, setup.task, route) };
    }),
  );
  return {
    task: setup.task,
    taskLabel: COMPARE_TASKS[setup.task].label,
    columns,
    problems,
    parameters: chatParameterSpecs(),
    taskParameters: setup.task === "text-generation" ? [] : describeTaskParameters(COMPARE_TASKS[setup.task].mappingTask).filter((f) => !INPUT_PARAMETERS.has(f.name)),
    inputs: startingInputs(setup.task, models.find((m) => m !== undefined && m !== null) ?? null),
    deadlineMs: readGatewayConfig(env).deadlineMs,
    serverKey: hasServerKey(env),
    modelyardVersion: modelyardVersion(),
    from: setup.columns.length === 0 ? await comparedFrom(url.searchParams.get("from"), setup.task, env, problems) : null,
  };
}

/** The `from` model of "Compare with…" when nothing here runs it: kept, with the reason and a search for models like it. */
async function comparedFrom(raw: string | null, task: CompareTask, env: EnvLike, problems: string[]): Promise<CompareInfo["from"]> {
  if (raw === null || raw === "") return null;
  const checked = checkModelId(raw);
  if (!checked.ok) {
    problems.push(`“${raw.slice(0, 80)}” is not a model id: ${checked.message}.`);
    return null;
  }
  const model = await getModelById(getDb().db, checked.id);
  if (!model) {
    problems.push(`There is no model “${checked.id}” in this catalogue.`);
    return null;
  }
  const label = COMPARE_TASKS[task].label.toLowerCase();
  const runs = columnChoices(model, task, env).length > 0;
  const name = model.id.split("/").pop() ?? model.id;
  return {
    modelId: model.id,
    note: runs
      ? `Add ${model.id} below as a column, with the provider of your choice.`
      : `Nothing here runs ${model.id} for ${label}: no inference provider or configured endpoint serves it. Compare models that can, starting from a search for its name.`,
    query: name.split(/[-_.]/)[0] ?? name,
  };
}

// Twenty: with the newest chat models filed under text generation (migration 0013), a search as
// broad as "llama" holds more runnable models than twelve, and the newest, which have no download
// count, came last and fell off.
export const CANDIDATE_LIMIT = 20;
const CANDIDATE_PAGE = 200;
// Bounded, so a search matching most of a large catalogue still answers at once.
const CANDIDATE_SCAN_LIMIT = 5_000;

/**
 * Models matching `query` that can run the task here, most downloaded first, each with the
 * providers and endpoints that can run it. The matches are read page by page until enough can run:
 * the newest mapped models have no download count, so a first page of the best-downloaded matches
 * held none of them ("llama" found no Llama 3). Without configured endpoints, a match no provider
 * maps is passed over by its listing row, without loading its record. `more` says the list stops
 * at CANDIDATE_LIMIT with other runnable matches after it (or unread past the scan's bound).
 */
export async function compareCandidates(task: CompareTask, query: string, env: EnvLike): Promise<CompareCandidates> {
  const snapshot = await openSnapshot(getDb());
  // Chat searches text-generation models (its route is "conversational", no pipeline tag); the rest their route's pipeline.
  const pipelineTag = task === "text-generation" ? task : COMPARE_TASKS[task].mappingTask;
  const filters = { ...emptyFilters(), search: query.trim().slice(0, 200) || null, pipelineTag };
  // Without configured endpoints, only a provider mapping can make a model runnable here.
  const endpointsConfigured = (env["MODELYARD_ENDPOINTS"] ?? "").trim() !== "";
  const out: CompareCandidate[] = [];
  // One past the limit, so the answer can say whether a longer search would find more.
  let unread = false;
  for (let offset = 0; out.length <= CANDIDATE_LIMIT; offset += CANDIDATE_PAGE) {
    if (offset >= CANDIDATE_SCAN_LIMIT) {
      unread = true;
      break;
    }
    const page = await search(snapshot, filters, { sort: "downloads", ascending: false, offset, limit: CANDIDATE_PAGE, counts: "none" });
    for (const summary of page.models) {
      if (out.length > CANDIDATE_LIMIT) break;
      if (summary.providers.length === 0 && !endpointsConfigured) continue;
      const model = await getModelById(snapshot.handle.db, summary.id);
      if (!model) continue;
      const choices = columnChoices(model, task, env);
      if (choices.length > 0) out.push({ modelId: model.id, choices });
    }
    if (page.models.length < CANDIDATE_PAGE) break;
  }
  return { candidates: out.slice(0, CANDIDATE_LIMIT), more: out.length > CANDIDATE_LIMIT || unread };
}

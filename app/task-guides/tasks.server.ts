/**
 * The task catalogue: every pipeline type of @huggingface/tasks with its guide data, grouped by
 * modality for /tasks, plus the guide text (about.md shipped inside the package), related tasks,
 * suggestions for unknown ids, and the Hub-compatible /api/tasks payload.
 *
 * Three kinds of task exist in the package (0.19.90):
 *  - a full guide: TASKS_DATA[id] is defined and not a placeholder;
 *  - a placeholder: TASKS_DATA[id] is defined with `isPlaceholder` (no guide text of its own), or
 *    TASKS_DATA[id] is undefined (PIPELINE_DATA knows the task, nobody wrote a guide);
 *  - a canonical alias: `canonicalId` names the more general task that also covers it (translation
 *    and summarization -> text-generation, text-to-speech -> text-to-audio). An alias can still
 *    have its own guide.
 * Colours come from TASK_COLORS (app/catalog/task-colors.ts): PIPELINE_DATA no longer carries them.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import {
  MODALITIES,
  MODALITY_LABELS,
  MODEL_LIBRARIES_UI_ELEMENTS,
  PIPELINE_DATA,
  TASKS_DATA,
  TASKS_MODEL_LIBRARIES,
  type Modality,
  type ModelLibraryKey,
  type PipelineType,
  type TaskData,
} from "@huggingface/tasks";
import { getTaskInfo, isPipelineType, type TaskColor } from "#app/catalog/task-colors.ts";
import { correctGuide } from "#app/task-guides/guide-corrections.ts";

export type { TaskData, TaskDemoEntry, ExampleRepo } from "@huggingface/tasks";

export interface TaskSummary {
  id: PipelineType;
  name: string;
  modality: Modality;
  modalityLabel: string;
  color: TaskColor;
  /** One or two sentences from the package; empty for tasks without a guide. */
  summary: string;
  subtasks: Array<{ type: string; name: string }>;
  /** True when the package has real guide data (not a placeholder) for the task. */
  hasGuide: boolean;
  /** The more general task that covers this one, when the package names one. */
  canonicalId: PipelineType | null;
  canonicalName: string | null;
  /**
   * `hideInModels`: the Hub does not offer this task as a /models filter. Modelyard follows it on
   * /tasks and on the task page by not linking the task to a filtered /models listing.
   */
  hideInModels: boolean;
  /**
   * `hideInDatasets`: the Hub does not offer this task as a /datasets filter. Modelyard has no
   * dataset listing of its own; the flag hides the task page's "Browse datasets on the Hub" link.
   */
  hideInDatasets: boolean;
}

export interface TaskGroup {
  modality: Modality;
  label: string;
  tasks: TaskSummary[];
}

export interface TaskLibrary {
  key: ModelLibraryKey;
  label: string;
  repoUrl: string | null;
}

/** TASKS_DATA entry for a task with a real guide; null for placeholders and unknown ids. */
export function getTaskGuideData(id: string): TaskData | null {
  if (!isPipelineType(id)) return null;
  const data = TASKS_DATA[id];
  if (!data || data.isPlaceholder === true) return null;
  return GUIDE_DATA.get(id) ?? data;
}

/**
 * The package's examples without its blank rows: zero-shot-image-classification lists a dataset
 * with an empty id and description, which became a nameless link to the Hub's /datasets/.
 */
const GUIDE_DATA = new Map<string, TaskData>(
  Object.entries(TASKS_DATA).flatMap(([id, data]) => {
    if (!data || data.isPlaceholder === true) return [];
    const named = <T extends { id: string }>(list: readonly T[]) => list.filter((e) => e.id.trim() !== "");
    return [[id, { ...data, models: named(data.models), datasets: named(data.datasets), spaces: named(data.spaces) }]];
  }),
);

function summarize(id: PipelineType): TaskSummary {
  const info = getTaskInfo(id);
  const data = TASKS_DATA[id];
  const canonical = data?.canonicalId && isPipelineType(data.canonicalId) ? data.canonicalId : null;
  const pipeline = PIPELINE_DATA[id];
  return {
    id,
    name: info.name,
    modality: info.modality,
    modalityLabel: info.modalityLabel,
    color: info.color,
    summary: data && data.isPlaceholder !== true ? data.summary : "",
    subtasks: "subtasks" in pipeline && pipeline.subtasks ? [...pipeline.subtasks] : [],
    hasGuide: getTaskGuideData(id) !== null,
    canonicalId: canonical,
    canonicalName: canonical ? PIPELINE_DATA[canonical].name : null,
    hideInModels: info.hideInModels,
    hideInDatasets: info.hideInDatasets,
  };
}

const ALL_TASK_IDS = Object.keys(PIPELINE_DATA).filter(isPipelineType);
const SUMMARIES = new Map<PipelineType, TaskSummary>(ALL_TASK_IDS.map((id) => [id, summarize(id)]));

export function getTaskSummary(id: string): TaskSummary | null {
  return isPipelineType(id) ? (SUMMARIES.get(id) ?? null) : null;
}

export function listTasks(): TaskSummary[] {
  return [...SUMMARIES.values()];
}

const byName = (a: TaskSummary, b: TaskSummary) => a.name.localeCompare(b.name, "en");

/** Every task, grouped in MODALITIES order with MODALITY_LABELS, sorted by name inside a group. */
export function listTaskGroups(): TaskGroup[] {
  return MODALITIES.map((modality) => ({
    modality,
    label: MODALITY_LABELS[modality],
    tasks: listTasks()
      .filter((t) => t.modality === modality)
      .sort(byName),
  })).filter((g) => g.tasks.length > 0);
}

/** Other tasks of the same modality, guides first, then by name. */
export function getRelatedTasks(id: string, limit = 6): TaskSummary[] {
  const task = getTaskSummary(id);
  if (!task) return [];
  return listTasks()
    .filter((t) => t.modality === task.modality && t.id !== task.id)
    .sort((a, b) => Number(b.hasGuide) - Number(a.hasGuide) || byName(a, b))
    .slice(0, limit);
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Tasks close to an unknown id, for the 404 page: ids within a small edit distance, ids sharing a
 * word with it, and subtasks of that name point at their parent task.
 */
export function suggestTasks(query: string, limit = 5): TaskSummary[] {
  const q = query.toLowerCase().trim().replace(/[\s_]+/g, "-");
  if (q === "") return [];
  const words = q.split("-").filter((w) => w.length > 2);
  const scored: Array<{ task: TaskSummary; score: number }> = [];
  for (const task of listTasks()) {
    const candidates = [task.id, task.name.toLowerCase().replace(/\s+/g, "-"), ...task.subtasks.map((s) => s.type)];
    let score = Math.min(...candidates.map((c) => levenshtein(q, c) / Math.max(q.length, c.length)));
    if (task.subtasks.some((s) => s.type === q)) score = 0;
    const shared = words.filter((w) => task.id.split("-").includes(w)).length;
    if (shared > 0) score = Math.min(score, 0.5 - shared * 0.1);
    if (score <= 0.45) scored.push({ task, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || byName(a.task, b.task))
    .slice(0, limit)
    .map((s) => s.task);
}

/** Libraries that support the task, with their display names from MODEL_LIBRARIES_UI_ELEMENTS. */
export function getTaskLibraries(id: string): TaskLibrary[] {
  if (!isPipelineType(id)) return [];
  return TASKS_MODEL_LIBRARIES[id].map((key) => {
    const ui = MODEL_LIBRARIES_UI_ELEMENTS[key];
    return { key, label: ui.prettyLabel, repoUrl: ui.repoUrl || null };
  });
}

const require = createRequire(import.meta.url);
let tasksSourceDir: string | undefined;

/** src/tasks of the installed @huggingface/tasks (the package ships its sources). */
function getTasksSourceDir(): string {
  tasksSourceDir ??= path.join(path.dirname(require.resolve("@huggingface/tasks/package.json")), "src", "tasks");
  return tasksSourceDir;
}

const guideCache = new Map<PipelineType, Promise<string | null>>();

/**
 * Twelve of the package's guides write some headings as "##" and a no-break space, which
 * CommonMark does not take for a heading: the text showed as "## Task Variants …" and the sections
 * after it nested under the one before.
 */
export function headingSpaces(md: string): string {
  return md.replace(/^(#{1,6})\u00a0+/gm, "$1 ");
}

/**
 * The guide (about.md) of a task with real guide data, read once per process: the package does
 * not change while the server runs, with code the pinned libraries cannot run corrected
 * (guide-corrections.ts). Null for placeholders, unknown ids and missing files.
 * Task folders are named after the task id; placeholders share src/tasks/placeholder, which is a
 * template for contributors and is not shown.
 */
export function loadTaskGuide(id: string): Promise<string | null> {
  if (!isPipelineType(id) || getTaskGuideData(id) === null) return Promise.resolve(null);
  let pending = guideCache.get(id);
  if (!pending) {
    pending = readFile(path.join(getTasksSourceDir(), id, "about.md"), "utf8").then((md) => correctGuide(id, headingSpaces(md)), (error: unknown) => {
      if (error instanceof Error && "code" in error && error.code === "ENOENT") return null;
      guideCache.delete(id);
      throw error;
    });
    guideCache.set(id, pending);
  }
  return pending;
}

export interface ProposeLink {
  file: "about.md" | "data.ts";
  label: string;
  url: string;
}

/**
 * "Propose updates" links built from a URL template with `{task}` and `{file}` placeholders
 * (MODELYARD_PROPOSE_URL_TEMPLATE), so a fork or a self-hosted catalogue can point elsewhere.
 * Tasks without a guide point at the placeholder template contributors start from.
 */
export function getProposeLinks(id: PipelineType, template: string): ProposeLink[] {
  const hasGuide = getTaskGuideData(id) !== null;
  const folder = hasGuide ? id : "placeholder";
  const build = (file: ProposeLink["file"]) =>
    template.replaceAll("{task}", encodeURIComponent(folder)).replaceAll("{file}", encodeURIComponent(file));
  return hasGuide
    ? [
        { file: "about.md", label: "Propose updates to the guide (about.md)", url: build("about.md") },
        { file: "data.ts", label: "Propose updates to the examples (data.ts)", url: build("data.ts") },
      ]
    : [
        { file: "about.md", label: "Write this guide (start from the placeholder about.md)", url: build("about.md") },
        { file: "data.ts", label: "Add examples (start from the placeholder data.ts)", url: build("data.ts") },
      ];
}

let apiPayload: string | undefined;

/**
 * The body of GET /api/tasks, in the Hub's shape: an object keyed by task id whose values are the
 * package's TaskData (datasets, demo, id, label, libraries, metrics, models, spaces, summary,
 * widgetModels, youtubeId, isPlaceholder, canonicalId). Tasks TASKS_DATA leaves undefined are
 * absent, as on the Hub. @huggingface/inference reads `tasks[task].models[0].id` from it to pick
 * a default model.
 */
export function getApiTasksPayload(): string {
  apiPayload ??= JSON.stringify(
    Object.fromEntries(Object.entries(TASKS_DATA).filter((entry): entry is [string, TaskData] => entry[1] !== undefined)),
  );
  return apiPayload;
}

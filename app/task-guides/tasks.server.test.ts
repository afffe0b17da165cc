import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { MODALITIES, MODALITY_LABELS, MODEL_LIBRARIES_UI_ELEMENTS, PIPELINE_DATA, TASKS_DATA, TASKS_MODEL_LIBRARIES } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { TASK_COLORS } from "#app/catalog/task-colors.ts";
import { taskMatches } from "#app/task-guides/task-search.ts";
import {
  getApiTasksPayload,
  getProposeLinks,
  getRelatedTasks,
  getTaskGuideData,
  getTaskLibraries,
  getTaskSummary,
  listTaskGroups,
  headingSpaces,
  loadTaskGuide,
  suggestTasks,
} from "#app/task-guides/tasks.server.ts";
import { taskAssetUrl } from "#app/catalog/task-assets.ts";
import { correctGuide } from "#app/task-guides/guide-corrections.ts";

const tasksDir = path.join(path.dirname(createRequire(import.meta.url).resolve("@huggingface/tasks/package.json")), "src", "tasks");

describe("listTaskGroups", () => {
  const groups = listTaskGroups();

  it("lists every pipeline type exactly once", () => {
    const ids = groups.flatMap((g) => g.tasks.map((t) => t.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Object.keys(PIPELINE_DATA).sort());
  });

  it("groups in MODALITIES order with MODALITY_LABELS", () => {
    expect(groups.map((g) => g.modality)).toEqual(MODALITIES.filter((m) => groups.some((g) => g.modality === m)));
    for (const g of groups) {
      expect(g.label).toBe(MODALITY_LABELS[g.modality]);
      for (const t of g.tasks) expect(PIPELINE_DATA[t.id].modality).toBe(g.modality);
      expect(g.tasks.map((t) => t.name)).toEqual([...g.tasks.map((t) => t.name)].sort((a, b) => a.localeCompare(b, "en")));
    }
  });

  it("carries colours, subtasks, summaries and the hide flags from the package", () => {
    const tc = getTaskSummary("text-classification");
    expect(tc?.color).toBe(TASK_COLORS["text-classification"]);
    expect(tc?.subtasks.length).toBe(PIPELINE_DATA["text-classification"].subtasks.length);
    expect(tc?.summary).toBe(TASKS_DATA["text-classification"]?.summary);
    expect(getTaskSummary("other")?.hideInModels).toBe(true);
    expect(getTaskSummary("other")?.hideInDatasets).toBe(true);
    expect(getTaskSummary("keypoint-detection")?.hideInDatasets).toBe(true);
    expect(getTaskSummary("keypoint-detection")?.hideInModels).toBe(false);
  });

  it("marks tasks without a guide and canonical aliases", () => {
    const tta = getTaskSummary("text-to-audio");
    expect(TASKS_DATA["text-to-audio"]).toBeUndefined();
    expect(tta?.hasGuide).toBe(false);
    expect(tta?.summary).toBe("");
    const translation = getTaskSummary("translation");
    expect(translation?.hasGuide).toBe(true);
    expect(translation?.canonicalId).toBe("text-generation");
    expect(translation?.canonicalName).toBe("Text Generation");
    expect(getTaskSummary("text-to-speech")?.canonicalId).toBe("text-to-audio");
    expect(getTaskSummary("text-generation")?.canonicalId).toBeNull();
  });

  it("rejects unknown ids", () => {
    expect(getTaskSummary("not-a-task")).toBeNull();
    expect(getTaskSummary("__proto__")).toBeNull();
    expect(getTaskGuideData("toString")).toBeNull();
  });

  it("leaves out the package's blank example rows, which would be nameless links", () => {
    // @huggingface/tasks ships zero-shot-image-classification with a dataset {id: "", description: ""}.
    expect(TASKS_DATA["zero-shot-image-classification"]?.datasets.some((d) => d.id === "")).toBe(true);
    expect(getTaskGuideData("zero-shot-image-classification")?.datasets).toEqual([]);
    expect(getTaskGuideData("zero-shot-image-classification")?.models.length).toBeGreaterThan(0);
    for (const id of Object.keys(TASKS_DATA)) {
      const data = getTaskGuideData(id);
      for (const e of [...(data?.models ?? []), ...(data?.datasets ?? []), ...(data?.spaces ?? [])]) expect(e.id.trim(), id).not.toBe("");
    }
  });
});

describe("loadTaskGuide", () => {
  it("reads about.md of the installed package (with its code corrected) and caches it", async () => {
    const md = await loadTaskGuide("text-generation");
    expect(md).toBe(correctGuide("text-generation", headingSpaces(readFileSync(path.join(tasksDir, "text-generation", "about.md"), "utf8"))));
    expect(loadTaskGuide("text-generation")).toBe(loadTaskGuide("text-generation"));
  });

  it("makes a heading of '##' and a no-break space, as the package writes some", async () => {
    const raw = readFileSync(path.join(tasksDir, "text-to-video", "about.md"), "utf8");
    expect(raw).toMatch(/^##\u00a0Task Variants$/m);
    const md = await loadTaskGuide("text-to-video");
    expect(md).toMatch(/^## Task Variants$/m);
    expect(md).not.toMatch(/^#+\u00a0/m);
    // Only at a line's start: a no-break space elsewhere is the author's.
    expect(headingSpaces("a\u00a0b\n#\u00a0\u00a0T\n ##\u00a0x")).toBe("a\u00a0b\n# T\n ##\u00a0x");
  });

  it("has no guide for tasks without data and for unknown ids", async () => {
    expect(await loadTaskGuide("graph-ml")).toBeNull();
    expect(await loadTaskGuide("../../package.json")).toBeNull();
  });

  it("finds a guide for every task with guide data", async () => {
    for (const id of Object.keys(PIPELINE_DATA)) {
      if (getTaskGuideData(id)) expect(await loadTaskGuide(id), id).toMatch(/^#+ /m);
    }
  });
});

describe("related tasks and suggestions", () => {
  it("relates tasks of the same modality, guides first", () => {
    const related = getRelatedTasks("text-generation");
    expect(related.length).toBeGreaterThan(0);
    expect(related.every((t) => t.modality === "nlp" && t.id !== "text-generation")).toBe(true);
    const firstWithout = related.findIndex((t) => !t.hasGuide);
    if (firstWithout >= 0) expect(related.slice(firstWithout).every((t) => !t.hasGuide)).toBe(true);
  });

  it("suggests close ids, word matches and the parent of a subtask", () => {
    expect(suggestTasks("text-generaton")[0]?.id).toBe("text-generation");
    expect(suggestTasks("image classification")[0]?.id).toBe("image-classification");
    expect(suggestTasks("named-entity-recognition").map((t) => t.id)).toContain("token-classification");
    expect(suggestTasks("zzzzzz")).toEqual([]);
    expect(suggestTasks("")).toEqual([]);
  });
});

describe("taskMatches", () => {
  const task = getTaskSummary("token-classification");
  it("matches id, name, modality and subtasks, every word", () => {
    if (!task) throw new Error("token-classification missing");
    expect(taskMatches(task, "")).toBe(true);
    expect(taskMatches(task, "TOKEN")).toBe(true);
    expect(taskMatches(task, "named entity")).toBe(true);
    expect(taskMatches(task, "natural language")).toBe(true);
    expect(taskMatches(task, "token image")).toBe(false);
  });
});

describe("libraries, links and assets", () => {
  it("names the libraries with their pretty labels", () => {
    const libs = getTaskLibraries("text-classification");
    expect(libs.map((l) => l.key)).toEqual(TASKS_MODEL_LIBRARIES["text-classification"]);
    expect(libs.find((l) => l.key === "transformers")?.label).toBe(MODEL_LIBRARIES_UI_ELEMENTS.transformers.prettyLabel);
  });

  it("builds propose links from the template", () => {
    const template = "https://git.example/tasks/{task}/{file}?ref=main";
    expect(getProposeLinks("text-generation", template).map((l) => l.url)).toEqual([
      "https://git.example/tasks/text-generation/about.md?ref=main",
      "https://git.example/tasks/text-generation/data.ts?ref=main",
    ]);
    // No guide yet: point at the template contributors start from.
    expect(getProposeLinks("graph-ml", template)[0]?.url).toBe("https://git.example/tasks/placeholder/about.md?ref=main");
  });

  it("joins the asset base, the task and the file name", () => {
    expect(taskAssetUrl("https://assets.example/tasks/", "image-classification", "cat pic.jpeg")).toBe(
      "https://assets.example/tasks/image-classification/cat%20pic.jpeg",
    );
  });
});

describe("getApiTasksPayload", () => {
  it("is TASKS_DATA keyed by task id, without the tasks the package leaves undefined", () => {
    const payload: unknown = JSON.parse(getApiTasksPayload());
    const expected = Object.fromEntries(Object.entries(TASKS_DATA).filter(([, d]) => d !== undefined));
    expect(payload).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(payload).not.toHaveProperty("graph-ml");
    expect(payload).toHaveProperty(["text-classification", "models", 0, "id"], TASKS_DATA["text-classification"]?.models[0]?.id);
    expect(payload).toHaveProperty(["text-generation", "widgetModels"], TASKS_DATA["text-generation"]?.widgetModels);
  });
});

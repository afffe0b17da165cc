import { describe, expect, it } from "vitest";
import { COMPARE_TASKS, isCompareTask, isLabelScoreTask } from "#app/compare/compare-tasks.ts";
import { type DemoModule, TASK_NAMES, TASKS, WIDGET_FAMILIES, WIDGET_TASKS } from "#app/tasks/task-records.ts";

describe("task records", () => {
  it("give every widget task a demo module whose Widget and /compare Output are components", async () => {
    for (const task of TASK_NAMES) {
      const { family, demo, compare } = TASKS[task];
      expect(demo === null, task).toBe(family === null);
      if (!demo) continue;
      const m: DemoModule = await demo();
      expect(typeof m.Widget, `${task} Widget`).toBe("function");
      // Label charts are drawn by /compare itself (as chat, which has no demo module); every other /compare task by its module.
      const drawn = isCompareTask(compare?.slug) && !isLabelScoreTask(compare.slug);
      expect(typeof m.Output, `${task} Output`).toBe(drawn ? "function" : "undefined");
    }
  });

  it("derive the widget families in the order the model page and the playground list them", () => {
    expect(WIDGET_FAMILIES).toEqual({
      text: ["text-classification", "zero-shot-classification", "token-classification", "fill-mask", "question-answering", "summarization", "translation", "text-generation", "feature-extraction", "sentence-similarity", "table-question-answering"],
      audio: ["automatic-speech-recognition", "audio-classification", "audio-to-audio", "text-to-speech"],
      tabular: ["tabular-classification", "tabular-regression"],
      vision: ["image-classification", "zero-shot-image-classification", "object-detection", "image-segmentation", "image-to-text", "visual-question-answering", "document-question-answering", "text-to-image", "image-to-image", "text-to-video"],
    });
    expect(WIDGET_TASKS).toHaveLength(27);
  });

  it("derive /compare's tasks: chat under text-generation, completion under text-completion, and every widget task", () => {
    expect(COMPARE_TASKS["text-generation"]).toMatchObject({ label: "Chat", mappingTask: "conversational", input: "chat" });
    expect(COMPARE_TASKS["text-completion"]).toMatchObject({ mappingTask: "text-generation", input: "text" });
    const mapped = Object.values(COMPARE_TASKS).map((e) => e.mappingTask);
    expect(new Set(mapped).size).toBe(mapped.length);
    expect(mapped.filter((t) => t !== "conversational").sort()).toEqual([...WIDGET_TASKS].sort());
  });
});

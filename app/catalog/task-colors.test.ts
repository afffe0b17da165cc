import { describe, expect, it } from "vitest";
import { getTaskInfo, isCatalogueTask } from "#app/catalog/task-colors.ts";

describe("task descriptions", () => {
  it("names a retired task the way the Hub did, in its modality, with its old colour", () => {
    expect(isCatalogueTask("text2text-generation")).toBe(true);
    expect(getTaskInfo("text2text-generation")).toMatchObject({ name: "Text2Text Generation", modality: "nlp", modalityLabel: "Natural Language Processing", color: "indigo" });
  });

  it("describes a current task from @huggingface/tasks", () => {
    expect(getTaskInfo("text-generation")).toMatchObject({ name: "Text Generation", modality: "nlp", color: "indigo" });
  });

  it("leaves a tag it does not know as its id, under Other, and not filterable as a task", () => {
    expect(isCatalogueTask("not-a-task")).toBe(false);
    expect(getTaskInfo("not-a-task")).toMatchObject({ name: "not-a-task", modality: "other" });
    expect(isCatalogueTask("__proto__")).toBe(false);
  });
});

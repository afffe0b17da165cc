/**
 * The JavaScript in every task guide, as the task page renders it, calls only what the pinned
 * @huggingface/inference 3.13.1 has. Python blocks are not checked: transformers and
 * huggingface_hub are not installed here, so there is nothing honest to resolve them against.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PIPELINE_DATA } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { isPipelineType } from "#app/catalog/task-colors.ts";
import { GUIDE_CORRECTIONS, correctGuide } from "#app/task-guides/guide-corrections.ts";
import { loadTaskGuide } from "#app/task-guides/tasks.server.ts";
import { missingCalls } from "#tests/support/js-snippet-calls.ts";

const tasksDir = path.join(path.dirname(createRequire(import.meta.url).resolve("@huggingface/tasks/package.json")), "src", "tasks");

/** Fenced JavaScript and TypeScript blocks of a markdown text. */
function jsBlocks(md: string): string[] {
  return [...md.matchAll(/^```(?:js|javascript|ts|typescript)\s*\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
}

async function allGuides(): Promise<Array<{ id: string; md: string }>> {
  const ids = Object.keys(PIPELINE_DATA).filter(isPipelineType);
  const guides = await Promise.all(ids.map(async (id) => ({ id, md: await loadTaskGuide(id) })));
  return guides.flatMap((g) => (g.md === null ? [] : [{ id: g.id, md: g.md }]));
}

describe("task guide code", () => {
  it("every JavaScript block of every guide calls only what @huggingface/inference 3.13.1 has", async () => {
    const guides = await allGuides();
    const blocks = guides.flatMap(({ id, md }) => jsBlocks(md).map((code) => ({ id, code })));
    expect(blocks.length).toBeGreaterThanOrEqual(13);
    const failures = blocks.flatMap(({ id, code }) => missingCalls(code).map((p) => `${id}: ${p}`));
    expect(failures).toEqual([]);
  });

  it("the shipped guides still hold every text a correction replaces (a package upgrade shows here)", () => {
    for (const [id, corrections] of Object.entries(GUIDE_CORRECTIONS)) {
      const shipped = readFileSync(path.join(tasksDir, id, "about.md"), "utf8");
      for (const { from } of corrections) expect(shipped, id).toContain(from);
      const fixed = correctGuide(id, shipped);
      expect(fixed, id).not.toContain("inference.conversational(");
      // Without the correction the check above has something to find.
      expect(jsBlocks(shipped).flatMap(missingCalls), id).toContain("inference.conversational(): conversational is not a function of new InferenceClient()");
    }
  });

  it("text-generation shows a text-generation call on the model of its own Python example", async () => {
    const md = (await loadTaskGuide("text-generation")) ?? "";
    expect(md).toContain("to infer text generation models on Hugging Face Hub.");
    expect(md).not.toContain("text classification models");
    expect(md).toContain(`await inference.textGeneration({\n\tmodel: "HuggingFaceH4/zephyr-7b-beta",\n\tinputs: "Hello, I'm a language model",\n});`);
    expect(await loadTaskGuide("text-classification")).toContain(
      `await inference.textClassification({\n\tmodel: "distilbert-base-uncased-finetuned-sst-2-english",\n\tinputs: "I love this movie!",\n});`,
    );
  });
});

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { type ChatEvidence, isChatModel, taskOf } from "#app/catalog/chat-model.ts";
import { compareTaskFor } from "#app/compare/compare-tasks.ts";
import { snippetTaskFor } from "#app/snippets/providers.ts";

interface Row {
  id: string;
  tags?: string[];
  pipeline_tag?: string | null;
  inferenceProviderMapping?: Record<string, { task: string }>;
}

const BUNDLED = path.resolve(import.meta.dirname, "..", "..", "catalogue", "hub-catalogue-2024-07-11.jsonl.gz");
const rows: Row[] = zlib
  .gunzipSync(fs.readFileSync(BUNDLED))
  .toString("utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Row);
const evidence = (r: Row): ChatEvidence => ({ pipelineTag: r.pipeline_tag ?? null, tags: r.tags ?? [], inferenceProviderMapping: Object.values(r.inferenceProviderMapping ?? {}) });
const mappedForChat = (r: Row) => Object.values(r.inferenceProviderMapping ?? {}).some((m) => m.task === "conversational");

describe("isChatModel", () => {
  it("reads chat from the tag, a conversational mapping or a chat template, and only for text and vision-language models", () => {
    expect(isChatModel({ pipelineTag: "text-generation", tags: ["conversational"] })).toBe(true);
    expect(isChatModel({ pipelineTag: "text-generation", tags: [], inferenceProviderMapping: [{ task: "conversational" }] })).toBe(true);
    expect(isChatModel({ pipelineTag: "image-text-to-text", tags: [], chatTemplate: { default: "{{ messages }}" } })).toBe(true);
    expect(isChatModel({ pipelineTag: "text-generation", tags: [], inferenceProviderMapping: [{ task: "text-generation" }], chatTemplate: null })).toBe(false);
    expect(isChatModel({ pipelineTag: "text-classification", tags: ["conversational"] })).toBe(false);
    // No pipeline tag at all: the mapping alone says it chats.
    expect(isChatModel({ pipelineTag: null, tags: [], inferenceProviderMapping: [{ task: "conversational" }] })).toBe(true);
    expect(isChatModel({ pipelineTag: null, tags: [], inferenceProviderMapping: [{ task: "text-to-image" }] })).toBe(false);
  });

  it("takes a model's task from its pipeline tag, else from mappings that agree on one", () => {
    expect(taskOf({ pipelineTag: "fill-mask", inferenceProviderMapping: [{ task: "conversational" }] })).toBe("fill-mask");
    expect(taskOf({ pipelineTag: null, inferenceProviderMapping: [{ task: "conversational" }, { task: "text-generation" }] })).toBe("text-generation");
    expect(taskOf({ pipelineTag: null, inferenceProviderMapping: [{ task: "text-to-image" }, { task: "text-to-image" }] })).toBe("text-to-image");
    expect(taskOf({ pipelineTag: null, inferenceProviderMapping: [{ task: "text-to-image" }, { task: "image-to-image" }] })).toBeNull();
    expect(taskOf({ pipelineTag: null, inferenceProviderMapping: [] })).toBeNull();
    expect(taskOf({ pipelineTag: null })).toBeNull();
  });

  it("on the bundled catalogue, no model a provider maps for chat is offered as completion only", () => {
    const mapped = rows.filter(mappedForChat);
    const tagless = mapped.filter((r) => !(r.tags ?? []).includes("conversational"));
    // The newest chat models: list rows whose only evidence is the mapping (Llama 3.3, DeepSeek-R1, Cohere's).
    expect(tagless.map((r) => r.id)).toEqual(expect.arrayContaining(["meta-llama/Llama-3.3-70B-Instruct", "deepseek-ai/DeepSeek-R1", "CohereLabs/c4ai-command-a-03-2025"]));
    expect(tagless.length).toBeGreaterThanOrEqual(119);
    // And the newest of all have no pipeline tag either (Qwen2.5-72B-Instruct, DeepSeek-V3).
    const untasked = mapped.filter((r) => !r.pipeline_tag);
    expect(untasked.map((r) => r.id)).toEqual(expect.arrayContaining(["Qwen/Qwen2.5-72B-Instruct", "deepseek-ai/DeepSeek-V3"]));
    for (const r of mapped.filter((r) => !r.pipeline_tag || ["text-generation", "image-text-to-text"].includes(r.pipeline_tag))) {
      expect(isChatModel(evidence(r)), r.id).toBe(true);
      expect(snippetTaskFor(evidence(r)), r.id).toBe("conversational");
      expect(compareTaskFor(evidence(r)), r.id).toBe("text-generation");
    }
  });
});

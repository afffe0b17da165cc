import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { type ChatEvidence, isChatModel } from "#app/catalog/chat-model.ts";
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
  });

  it("on the bundled catalogue, no model a provider maps for chat is offered as completion only", () => {
    const mapped = rows.filter(mappedForChat);
    const tagless = mapped.filter((r) => !(r.tags ?? []).includes("conversational"));
    // The newest chat models: list rows whose only evidence is the mapping (Llama 3.3, DeepSeek-R1, Cohere's).
    expect(tagless.map((r) => r.id)).toEqual(expect.arrayContaining(["meta-llama/Llama-3.3-70B-Instruct", "deepseek-ai/DeepSeek-R1", "CohereLabs/c4ai-command-a-03-2025"]));
    expect(tagless.length).toBeGreaterThanOrEqual(119);
    for (const r of mapped) {
      expect(snippetTaskFor(evidence(r)), r.id).not.toBe("text-generation");
      expect(compareTaskFor(evidence(r)), r.id).not.toBe("text-completion");
    }
  });
});

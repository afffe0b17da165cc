import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isChatModel } from "#app/catalog/chat-model.ts";
import { compareTaskFor } from "#app/compare/compare-tasks.ts";
import { snippetTaskFor } from "#app/snippets/providers.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

/** Every provider mapping the shared data holds (344 models): none mapped for chat is shown as completion only. */
describe("chat models in the shared provider mappings", () => {
  it("every model a provider maps for chat is a chat model on every page that asks", () => {
    const lines = fs.readFileSync(path.join(sharedDataDir(), "provider-mappings.jsonl"), "utf8").split("\n").filter((l) => l.trim() !== "");
    let chat = 0;
    for (const line of lines) {
      const row = JSON.parse(line) as { id: string; pipeline_tag?: string | null; tags?: string[]; inferenceProviderMapping?: Record<string, { task: string }> };
      const mapping = Object.values(row.inferenceProviderMapping ?? {});
      if (!mapping.some((m) => m.task === "conversational")) continue;
      const model = { pipelineTag: row.pipeline_tag ?? null, tags: row.tags ?? [], inferenceProviderMapping: mapping };
      chat += 1;
      expect(snippetTaskFor(model), row.id).not.toBe("text-generation");
      expect(compareTaskFor(model), row.id).not.toBe("text-completion");
      if (model.pipelineTag === "text-generation" || model.pipelineTag === "image-text-to-text") expect(isChatModel(model), row.id).toBe(true);
    }
    expect(chat).toBeGreaterThan(100);
  });
});

/**
 * 3.13.1's text-generation snippet generator reassigns its closure's template when it writes a chat
 * snippet, so a process that once wrote chat code for a text-generation model would write chat code
 * for every plain one after (getInferenceSnippetsFor works around it). In a file of its own: any
 * direct library call for a chat model, as inference-snippets.test.ts makes, would spoil the check.
 */
import { describe, expect, it } from "vitest";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { getInferenceSnippetsFor, type InferenceSnippetsResult } from "#app/snippets/inference-snippets.ts";
import { fixtureById, loadInferenceFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";

describe("a plain text-generation model after a chat model", () => {
  it("still gets the text-generation code", () => {
    const chat = fixtureById(loadInferenceFixtures(), "meta-llama/Meta-Llama-3-8B-Instruct");
    const plain: CatalogModel = {
      ...chat,
      id: "acme/plain-text-generation",
      tags: [],
      inferenceProviderMapping: [{ provider: "together", providerId: "acme/plain", task: "text-generation", status: "live", adapter: null, adapterWeightsPath: null }],
    };
    const js = (r: InferenceSnippetsResult) => r.languages.find((l) => l.language === "js")?.clients.find((c) => c.client === "huggingface.js")?.content ?? "";
    const before = js(getInferenceSnippetsFor(plain, { provider: "together" }));
    expect(before).toContain("await client.textGeneration({");
    for (const streaming of [false, true]) expect(js(getInferenceSnippetsFor(chat, { provider: "together", streaming }))).toContain("client.chatCompletion");
    expect(js(getInferenceSnippetsFor(plain, { provider: "together" }))).toBe(before);
  });
});

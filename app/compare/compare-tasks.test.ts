import { describe, expect, it } from "vitest";
import { buildCompareRequest, type CompareInputValues } from "#app/compare/compare-tasks.ts";
import { sessionSchema } from "#app/compare/session-schema.ts";

const values = (v: Partial<CompareInputValues>): CompareInputValues => ({ text: "", context: "", candidateLabels: "", sentences: "", ...v });

describe("buildCompareRequest", () => {
  it("builds each input kind's request the way the task's widget does", () => {
    expect(buildCompareRequest("token-classification", values({ text: "My name is Sarah" }), null)).toEqual({ ok: true, inputs: "My name is Sarah" });
    expect(buildCompareRequest("question-answering", values({ text: "Where?", context: "In Paris." }), null)).toEqual({ ok: true, inputs: { question: "Where?", context: "In Paris." } });
    expect(buildCompareRequest("zero-shot-classification", values({ text: "A film", candidateLabels: "cinema, art ,, music" }), null)).toEqual({ ok: true, inputs: "A film", parameters: { candidate_labels: ["cinema", "art", "music"] } });
    expect(buildCompareRequest("sentence-similarity", values({ text: "a", sentences: "b\n\n c \n" }), null)).toEqual({ ok: true, inputs: { source_sentence: "a", sentences: ["b", "c"] } });
    const png = new Blob([new Uint8Array([1])], { type: "image/png" });
    expect(buildCompareRequest("image-classification", values({}), png)).toEqual({ ok: true, file: png });
  });

  it("says what is missing", () => {
    expect(buildCompareRequest("question-answering", values({ text: "Where?" }), null)).toEqual({ ok: false, message: "Give a question and a context." });
    expect(buildCompareRequest("zero-shot-classification", values({ text: "x" }), null)).toEqual({ ok: false, message: "Give at least one candidate label." });
    expect(buildCompareRequest("image-classification", values({ text: "x" }), null)).toEqual({ ok: false, message: "Choose an image." });
    expect(buildCompareRequest("summarization", values({ text: "  " }), null)).toEqual({ ok: false, message: "Type some text first." });
  });
});

describe("a session's task output", () => {
  const metrics = { timeToFirstTokenMs: null, tokensPerSecond: null, totalMs: 12, promptTokens: null, completionTokens: null, totalTokens: null, usageSource: null };
  const session = (output: unknown) => ({
    kind: "modelyard-session",
    schemaVersion: 1,
    modelyardVersion: "0.1.0",
    savedAt: "2026-01-01T00:00:00.000Z",
    source: "compare",
    task: "question-answering",
    system: "",
    parameters: {},
    input: { text: "Where?", fileName: null, context: "In Paris." },
    columns: [{ modelId: "org/qa", route: "hf-inference", parameters: {}, snippet: null, turns: [], result: { kind: "output", output, metrics } }],
  });

  it("keeps the answer as it came, bounded in size", () => {
    expect(sessionSchema.safeParse(session({ answer: "Paris", start: 3, end: 8, score: 0.9 })).success).toBe(true);
    const huge = sessionSchema.safeParse(session({ answer: "x".repeat(1_100_000) }));
    expect(huge.success).toBe(false);
    expect(huge.error?.issues[0]?.message).toContain("at most 1000000 bytes");
  });
});

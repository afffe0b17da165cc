import { describe, expect, it } from "vitest";
import { entitySpans, fillMaskCandidates, generatedText, labelScores, qaAnswer, similarityScores, tableAnswer, vectorSummary, zeroShotScores } from "#app/demos/text/output-shapes.ts";

describe("output shapes", () => {
  it("sorts label scores, flat or nested once", () => {
    expect(labelScores([[{ label: "NEG", score: 0.1 }, { label: "POS", score: 0.9 }]])).toEqual([{ label: "POS", score: 0.9 }, { label: "NEG", score: 0.1 }]);
    expect(labelScores([{ label: "x" }])).toBeNull();
  });

  it("reads zero-shot's labels/scores arrays", () => {
    expect(zeroShotScores([{ sequence: "s", labels: ["a", "b"], scores: [0.2, 0.8] }])).toEqual([{ label: "b", score: 0.8 }, { label: "a", score: 0.2 }]);
    expect(zeroShotScores([{ sequence: "s", labels: ["a"], scores: [0.2, 0.8] }])).toBeNull();
  });

  it("keeps entity spans inside the text, in order, without overlaps", () => {
    const text = "My name is Sarah and I live in London";
    const out = [
      { entity_group: "LOC", score: 0.9, word: "London", start: 31, end: 37 },
      { entity_group: "PER", score: 0.99, word: "Sarah", start: 11, end: 16 },
      { entity_group: "PER", score: 0.5, word: "arah", start: 12, end: 16 },
      { entity_group: "X", score: 0.5, word: "??", start: 30, end: 99 },
    ];
    expect(entitySpans(text, out)?.map((s) => [s.label, text.slice(s.start, s.end)])).toEqual([["PER", "Sarah"], ["LOC", "London"]]);
    expect(entitySpans(text, [])).toEqual([]);
    expect(entitySpans(text, { nope: 1 })).toBeNull();
  });

  it("ranks fill-mask candidates", () => {
    expect(fillMaskCandidates([{ token_str: "cat", score: 0.1, sequence: "a cat" }, { token_str: "dog", score: 0.6, sequence: "a dog" }])?.map((c) => c.token)).toEqual(["dog", "cat"]);
  });

  it("finds the answer in its context by offsets, or by text when they do not match", () => {
    const ctx = "My name is Clara and I live in Berkeley.";
    expect(qaAnswer({ answer: "Clara", score: 0.9, start: 11, end: 16 }, ctx)?.span).toEqual({ start: 11, end: 16, label: "answer" });
    expect(qaAnswer({ answer: "Berkeley", score: 0.5, start: 0, end: 3 }, ctx)?.span).toEqual({ start: 31, end: 39, label: "answer" });
    expect(qaAnswer({ answer: "Paris", start: 0, end: 5 }, ctx)).toEqual({ answer: "Paris", score: null, span: null });
  });

  it("reads generated text from an object or a list", () => {
    expect(generatedText({ summary_text: "short" }, "summary_text")).toBe("short");
    expect(generatedText([{ translation_text: "Hallo" }], "translation_text")).toBe("Hallo");
    expect(generatedText([{ other: 1 }], "generated_text")).toBeNull();
  });

  it("gives a vector's shape, preview and length", () => {
    expect(vectorSummary([3, 4], 1)).toEqual({ shape: [2], preview: [3], norm: 5 });
    expect(vectorSummary([[[1, 0], [0, 1]]])?.shape).toEqual([1, 2, 2]);
    expect(vectorSummary([[1, "x"]])).toBeNull();
  });

  it("pairs similarity scores with the sentences in order", () => {
    expect(similarityScores([0.5, 0.25], ["a", "b"])).toEqual([{ label: "a", score: 0.5 }, { label: "b", score: 0.25 }]);
    expect(similarityScores([0.5], ["a", "b"])).toBeNull();
  });

  it("reads a table answer, dropping the NONE aggregator", () => {
    expect(tableAnswer({ answer: "AVERAGE > 36542", coordinates: [[0, 1]], cells: ["36542"], aggregator: "AVERAGE" })).toEqual({ answer: "AVERAGE > 36542", cells: ["36542"], coordinates: [[0, 1]], aggregator: "AVERAGE" });
    expect(tableAnswer({ answer: "7", coordinates: [[2, 2]], cells: ["7"], aggregator: "NONE" })?.aggregator).toBeNull();
  });
});

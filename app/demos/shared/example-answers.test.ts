import { TASKS_DATA, type PipelineType } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { toTaskExample } from "#app/demos/shared/default-inputs.ts";
import {
  exampleFillMask,
  exampleGeneratedText,
  exampleInputImageUrl,
  exampleLabelScores,
  exampleQuestionAnswer,
  exampleScoredAnswers,
  exampleSimilarity,
  exampleTableAnswer,
  exampleTabular,
  exampleTranscript,
} from "#app/demos/shared/example-answers.ts";
import type { TaskExample } from "#app/demos/shared/widget-info.ts";
import { fillMaskCandidates, labelScores, qaAnswer, similarityScores, tableAnswer } from "#app/demos/text/output-shapes.ts";

function example(task: PipelineType): TaskExample {
  const ex = toTaskExample(TASKS_DATA[task]?.demo);
  if (!ex) throw new Error(`no demo for ${task}`);
  return ex;
}

const text = (content: string): TaskExample => ({ inputs: [{ type: "text", label: "", content }], outputs: [] });

describe("the task guides' examples as provider answers", () => {
  it("fill-mask: each candidate with the guide's sentence filled in, in the shape the widget reads", () => {
    const out = exampleFillMask(example("fill-mask"));
    expect(out?.[0]).toEqual({ token_str: "wolf", score: 0.487, sequence: "The wolf barked at me" });
    expect(fillMaskCandidates(out)?.map((c) => c.token)).toEqual(["wolf", "dog", "cat", "fox", "squirrel"]);
    // A sentence without the guide's mask gets no invented sequence.
    expect(exampleFillMask({ ...text("no mask here"), outputs: [{ type: "chart", data: [{ label: "x", score: 1 }] }] })?.[0]?.sequence).toBe("");
  });

  it("question answering: the answer found in the guide's context, without a score", () => {
    const qa = exampleQuestionAnswer(example("question-answering"));
    const answer = qa ? qaAnswer(qa.output, qa.context) : null;
    const at = qa?.context.indexOf("Amazonia") ?? -1;
    expect(at).toBeGreaterThan(0);
    expect(answer).toEqual({ answer: "Amazonia", score: null, span: { start: at, end: at + "Amazonia".length, label: "answer" } });
  });

  it("table question answering: the one cell holding the answer is marked, and none when several do", () => {
    const a = exampleTableAnswer(example("table-question-answering"));
    expect(tableAnswer(a?.output)).toEqual({ answer: "7", cells: ["7"], coordinates: [[2, 2]], aggregator: null });
    const twice: TaskExample = {
      inputs: [{ type: "tabular", table: [["A", "B"], ["7", "7"]] }],
      outputs: [{ type: "text", label: "", content: "7" }],
    };
    expect(exampleTableAnswer(twice)?.output.coordinates).toEqual([]);
  });

  it("label scores, similarity, answers, transcripts and generated text keep the guide's values", () => {
    expect(labelScores(exampleLabelScores(example("audio-classification")))).toEqual([{ label: "Down", score: 0.8 }, { label: "Up", score: 0.2 }]);
    const s = exampleSimilarity(example("sentence-similarity"));
    expect(similarityScores(s?.scores, s?.sentences ?? [])?.map((x) => x.label)).toEqual(TASKS_DATA["sentence-similarity"]?.demo.inputs.slice(1).map((e) => (e.type === "text" ? e.content : "")));
    expect(exampleScoredAnswers(example("visual-question-answering"))?.[0]).toEqual({ answer: "elephant", score: 0.97 });
    expect(exampleScoredAnswers(example("document-question-answering"))).toEqual([{ answer: "Balance cost efficiency with quality customer service" }]);
    expect(exampleTranscript(example("automatic-speech-recognition"))?.text).toMatch(/^Going along slushy country roads/);
    expect(exampleGeneratedText(example("translation"), "translation_text")).toEqual([{ translation_text: "Mein Name ist Omar und ich wohne in Zürich." }]);
    expect(exampleGeneratedText(example("text-to-image"), "generated_text")).toBeNull();
  });

  it("tabular: the input rows and one value per row under the guide's column name", () => {
    expect(exampleTabular(example("tabular-regression"))).toMatchObject({ predictions: ["17", "18", "31"], header: "MPG (miles per gallon)" });
    expect(exampleTabular({ inputs: [{ type: "tabular", table: [["A"], ["1"]] }], outputs: [{ type: "tabular", table: [["P"], ["x"], ["y"]] }] })).toBeNull();
  });
});

describe("exampleInputImageUrl", () => {
  it("is the guide's input image where the server knows its host, else nothing", () => {
    const withUrl: TaskExample = {
      inputs: [{ type: "media", kind: "image", filename: "image-classification-input.jpeg", url: "https://assets.example/image-classification/image-classification-input.jpeg" }],
      outputs: [],
    };
    expect(exampleInputImageUrl(withUrl)).toBe("https://assets.example/image-classification/image-classification-input.jpeg");
    expect(exampleInputImageUrl({ inputs: [{ type: "media", kind: "image", filename: "x.jpeg" }], outputs: [] })).toBeUndefined();
    expect(exampleInputImageUrl({ inputs: [{ type: "media", kind: "audio", filename: "a.flac", url: "https://assets.example/a.flac" }], outputs: [] })).toBeUndefined();
    expect(exampleInputImageUrl(null)).toBeUndefined();
  });
});

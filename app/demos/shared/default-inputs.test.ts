import { TASKS_DATA } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { EMPTY_INPUTS, tableColumns, tableRows, toTaskExample } from "#app/demos/shared/default-inputs.ts";
import { defaultInputs, inputsFromExample } from "#app/demos/shared/starting-inputs.ts";

describe("defaultInputs", () => {
  it("takes the first usable widgetData entry for the task", () => {
    const got = defaultInputs("question-answering", [{ text: "no context" }, { text: "Who?", context: "Ada wrote it." }], null, null);
    expect(got).toEqual({ source: "widgetData", inputs: { ...EMPTY_INPUTS, text: "Who?", context: "Ada wrote it." } });
  });

  it("reads zero-shot labels, sentence lists and column tables in the Hub's widgetData shapes", () => {
    expect(defaultInputs("zero-shot-classification", [{ text: "t", candidate_labels: "a, b ,,c" }], null, null).inputs.candidateLabels).toEqual(["a", "b", "c"]);
    expect(defaultInputs("sentence-similarity", [{ source_sentence: "s", sentences: ["x", "y"] }], null, null).inputs).toMatchObject({ text: "s", sentences: ["x", "y"] });
    const table = defaultInputs("table-question-answering", [{ text: "q", table: { Repo: ["a", "b"], Stars: [1, 2] } }], null, null).inputs.table;
    expect(table).toEqual([["Repo", "Stars"], ["a", "1"], ["b", "2"]]);
  });

  it("falls back to the task guide's demo inputs, for every text task", () => {
    const example = (task: string) => toTaskExample(TASKS_DATA[task as keyof typeof TASKS_DATA]?.demo);
    expect(defaultInputs("text-classification", null, example("text-classification"), null)).toEqual({ source: "task", inputs: { ...EMPTY_INPUTS, text: "I love Hugging Face!" } });
    expect(inputsFromExample("zero-shot-classification", example("zero-shot-classification"), null).candidateLabels).toEqual(["CINEMA", "ART", "MUSIC"]);
    expect(inputsFromExample("question-answering", example("question-answering"), null).context).toContain("Amazonia");
    expect(inputsFromExample("sentence-similarity", example("sentence-similarity"), null).sentences).toHaveLength(3);
    expect(inputsFromExample("table-question-answering", example("table-question-answering"), null).table[0]).toEqual(["Rank", "Name", "No.of reigns", "Combined days"]);
  });

  it("tabular tasks: the Hub's structured_data columns, else the task guide's table", () => {
    const got = defaultInputs("tabular-regression", [{ structured_data: { Height: [11.52, 12.48], Width: ["4.02", "4.3"] } }], null, null);
    expect(got).toEqual({ source: "widgetData", inputs: { ...EMPTY_INPUTS, table: [["Height", "Width"], ["11.52", "4.02"], ["12.48", "4.3"]] } });
    expect(defaultInputs("tabular-classification", [{ text: "not a table" }], null, null).inputs.table).toEqual([]);
    const example = toTaskExample(TASKS_DATA["tabular-classification"]?.demo);
    expect(defaultInputs("tabular-classification", null, example, null).inputs.table[0]).toEqual(["Glucose", "Blood Pressure ", "Skin Thickness", "Insulin", "BMI"]);
  });

  it("vision tasks: zero-shot image labels from widgetData or the guide, prompts and questions from the guide", () => {
    const example = (task: string) => toTaskExample(TASKS_DATA[task as keyof typeof TASKS_DATA]?.demo);
    expect(defaultInputs("zero-shot-image-classification", [{ src: "https://x/cat.png", candidate_labels: "cat, dog" }], null, null)).toEqual({ source: "widgetData", inputs: { ...EMPTY_INPUTS, candidateLabels: ["cat", "dog"] } });
    expect(inputsFromExample("zero-shot-image-classification", example("zero-shot-image-classification"), null)).toEqual({ ...EMPTY_INPUTS, candidateLabels: ["cat", "dog", "bird"] });
    expect(inputsFromExample("visual-question-answering", example("visual-question-answering"), null).text).toBe("What is in this image?");
    expect(inputsFromExample("text-to-image", example("text-to-image"), null).text).toBe("A city above clouds, pastel colors, Victorian style");
    expect(defaultInputs("image-classification", [{ src: "https://x/tiger.jpg" }], example("image-classification"), null)).toEqual({ source: "task", inputs: EMPTY_INPUTS });
  });

  it("writes the model's own mask token into the fill-mask example", () => {
    const example = toTaskExample(TASKS_DATA["fill-mask"]?.demo);
    expect(inputsFromExample("fill-mask", example, "[MASK]").text).toBe("The [MASK] barked at me");
    // Unknown token: no guessed <mask> in the box.
    expect(inputsFromExample("fill-mask", example, null).text).toBe("");
  });
});

describe("tables", () => {
  it("goes from rows to the spec's column object and back", () => {
    const rows = [["A", "B", ""], ["1", "2", "x"]];
    expect(tableColumns(rows)).toEqual({ A: ["1"], B: ["2"] });
    expect(tableRows({ A: ["1"], B: ["2"] })).toEqual([["A", "B"], ["1", "2"]]);
  });
});

describe("toTaskExample", () => {
  it("keeps text, chart, token and table entries, and media by file name", () => {
    const ex = toTaskExample({ inputs: [{ type: "img", filename: "x.png" }, { type: "text", label: "In", content: "hi" }], outputs: [{ type: "chart", data: [{ label: "A", score: 0.5 }] }] });
    expect(ex).toEqual({ inputs: [{ type: "media", kind: "image", filename: "x.png" }, { type: "text", label: "In", content: "hi" }], outputs: [{ type: "chart", data: [{ label: "A", score: 0.5 }] }] });
    expect(toTaskExample({ inputs: [{ type: "audio", filename: "a.flac" }, { type: "img" }], outputs: [] })).toEqual({ inputs: [{ type: "media", kind: "audio", filename: "a.flac" }], outputs: [] });
    expect(toTaskExample({ inputs: [], outputs: [] })).toBeNull();
  });

  it("gives media the URL mediaUrl makes of their file name", () => {
    const ex = toTaskExample({ inputs: [{ type: "audio", filename: "a.flac" }], outputs: [{ type: "img", filename: "b c.png" }] }, (f) => `https://assets.example/t/${encodeURIComponent(f)}`);
    expect(ex).toEqual({
      inputs: [{ type: "media", kind: "audio", filename: "a.flac", url: "https://assets.example/t/a.flac" }],
      outputs: [{ type: "media", kind: "image", filename: "b c.png", url: "https://assets.example/t/b%20c.png" }],
    });
  });
});

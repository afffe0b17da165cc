import { describe, expect, it } from "vitest";
import { buildCompareRequest, COMPARE_TASKS, type CompareInputValues, inputFileKind } from "#app/compare/compare-tasks.ts";
import { sessionSchema } from "#app/compare/session-schema.ts";

const values = (v: Partial<CompareInputValues>): CompareInputValues => ({ text: "", context: "", candidateLabels: "", sentences: "", table: [], ...v });

describe("buildCompareRequest", () => {
  it("builds each input kind's request the way the task's widget does", () => {
    expect(buildCompareRequest("token-classification", values({ text: "My name is Sarah" }), null)).toEqual({ ok: true, inputs: "My name is Sarah" });
    // A completion is the prompt as the text-generation widget sends it, on the providers' text-generation route.
    expect(buildCompareRequest("text-completion", values({ text: "Once upon a time," }), null)).toEqual({ ok: true, inputs: "Once upon a time," });
    expect(COMPARE_TASKS["text-completion"].mappingTask).toBe("text-generation");
    expect(buildCompareRequest("question-answering", values({ text: "Where?", context: "In Paris." }), null)).toEqual({ ok: true, inputs: { question: "Where?", context: "In Paris." } });
    expect(buildCompareRequest("zero-shot-classification", values({ text: "A film", candidateLabels: "cinema, art ,, music" }), null)).toEqual({ ok: true, inputs: "A film", parameters: { candidate_labels: ["cinema", "art", "music"] } });
    expect(buildCompareRequest("sentence-similarity", values({ text: "a", sentences: "b\n\n c \n" }), null)).toEqual({ ok: true, inputs: { source_sentence: "a", sentences: ["b", "c"] } });
    const png = new Blob([new Uint8Array([1])], { type: "image/png" });
    expect(buildCompareRequest("image-classification", values({}), png)).toEqual({ ok: true, file: png });
  });

  it("builds the vision, audio and media rows the way their widgets do", () => {
    const png = new Blob([new Uint8Array([1])], { type: "image/png" });
    const flac = new Blob([new Uint8Array([2])], { type: "audio/flac" });
    const pdf = new Blob([new Uint8Array([3])], { type: "application/pdf" });
    expect(buildCompareRequest("image-segmentation", values({}), png)).toEqual({ ok: true, file: png });
    expect(buildCompareRequest("image-to-text", values({}), png)).toEqual({ ok: true, file: png });
    expect(buildCompareRequest("zero-shot-image-classification", values({ candidateLabels: "cat, dog" }), png)).toEqual({ ok: true, file: png, parameters: { candidate_labels: ["cat", "dog"] } });
    expect(buildCompareRequest("visual-question-answering", values({ text: "What colour?" }), png)).toEqual({ ok: true, inputs: { question: "What colour?" }, file: png });
    expect(buildCompareRequest("document-question-answering", values({ text: "Total?" }), pdf)).toEqual({ ok: true, inputs: { question: "Total?" }, file: pdf });
    expect(buildCompareRequest("image-to-image", values({ text: "as a watercolour" }), png)).toEqual({ ok: true, file: png, parameters: { prompt: "as a watercolour" } });
    expect(buildCompareRequest("image-to-image", values({ text: " " }), png)).toEqual({ ok: true, file: png });
    for (const task of ["automatic-speech-recognition", "audio-classification", "audio-to-audio"] as const) expect(buildCompareRequest(task, values({ text: "ignored" }), flac)).toEqual({ ok: true, file: flac });
    for (const task of ["text-to-image", "text-to-video", "text-to-speech"] as const) expect(buildCompareRequest(task, values({ text: "A lighthouse at dusk" }), null)).toEqual({ ok: true, inputs: "A lighthouse at dusk" });
  });

  it("builds the table rows the way their widgets do", () => {
    const table = [["year", "city"], ["1896", "Athens"], ["2004", "Athens"]];
    expect(buildCompareRequest("tabular-regression", values({ table }), null)).toEqual({ ok: true, inputs: { data: { year: ["1896", "2004"], city: ["Athens", "Athens"] } } });
    expect(buildCompareRequest("table-question-answering", values({ text: "When?", table }), null)).toEqual({ ok: true, inputs: { query: "When?", table: { year: ["1896", "2004"], city: ["Athens", "Athens"] } } });
    expect(buildCompareRequest("table-question-answering", values({ text: " ", table }), null)).toEqual({ ok: false, message: "Ask a question about the table." });
    expect(buildCompareRequest("tabular-classification", values({ table: [] }), null).ok).toBe(false);
  });

  it("names the file each row needs", () => {
    expect(inputFileKind(COMPARE_TASKS["document-question-answering"].input)).toBe("document");
    expect(inputFileKind(COMPARE_TASKS["image-to-image"].input)).toBe("image");
    expect(inputFileKind(COMPARE_TASKS["text-to-speech"].input)).toBeNull();
    expect(buildCompareRequest("automatic-speech-recognition", values({}), null)).toEqual({ ok: false, message: "Choose an audio file." });
    expect(buildCompareRequest("document-question-answering", values({ text: "Total?" }), null)).toEqual({ ok: false, message: "Choose a scanned page (an image) or a PDF." });
    const png = new Blob([new Uint8Array([1])], { type: "image/png" });
    expect(buildCompareRequest("visual-question-answering", values({ text: " " }), png)).toEqual({ ok: false, message: "Type a question about it." });
    expect(buildCompareRequest("zero-shot-image-classification", values({ candidateLabels: " , " }), png)).toEqual({ ok: false, message: "Give at least one candidate label." });
    expect(buildCompareRequest("text-to-image", values({}), null)).toEqual({ ok: false, message: "Type some text first." });
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

  it("keeps a generated image, clip or video by its type and size, never its bytes", () => {
    const media = { ...session(null), task: "text-to-image" };
    media.columns[0] = { ...media.columns[0]!, result: { kind: "media", contentType: "image/png", bytes: 2048, metrics } as never };
    expect(sessionSchema.safeParse(media).success).toBe(true);
    const withBytes = structuredClone(media) as { columns: Array<{ result: Record<string, unknown> }> };
    withBytes.columns[0]!.result.data = "iVBORw0KGgo=";
    expect(sessionSchema.safeParse(withBytes).success).toBe(false);
  });
});

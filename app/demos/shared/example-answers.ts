/**
 * The task guide's example (TASKS_DATA[task].demo) as the answer a provider would give, so each
 * widget draws the example with its own output component. Only what the example holds goes in:
 * no invented scores, offsets or cells. Each returns null when the example lacks what the
 * component needs; the widget then shows the entries as they are.
 */
import { entriesOf } from "#app/demos/shared/default-inputs.ts";
import type { TaskExample } from "#app/demos/shared/widget-info.ts";

const texts = (example: TaskExample, side: "inputs" | "outputs") => entriesOf(example[side], "text").map((e) => e.content);
const chart = (example: TaskExample) => entriesOf(example.outputs, "chart")[0]?.data ?? null;

/** Label-score tasks: the guide's chart as the provider's [{label, score}]. */
export function exampleLabelScores(example: TaskExample): Array<{ label: string; score: number }> | null {
  const data = chart(example);
  return data && data.length > 0 ? data.map((d) => ({ ...d })) : null;
}

/** Summarization, translation, text generation, captioning: the output text under the task's key. */
export function exampleGeneratedText<K extends string>(example: TaskExample, key: K): Array<Record<K, string>> | null {
  const [text] = texts(example, "outputs");
  return text === undefined ? null : [{ [key]: text } as Record<K, string>];
}

/** The prompt, question or sentence the example starts from (its first input text). */
export function exampleInputText(example: TaskExample): string {
  return texts(example, "inputs")[0] ?? "";
}

/**
 * Fill-mask: the guide's candidates with their scores, each with the input sentence filled in
 * (the guide writes RoBERTa's `<mask>`), as the provider's `sequence` would read.
 */
export function exampleFillMask(example: TaskExample): Array<{ token_str: string; score: number; sequence: string }> | null {
  const data = chart(example);
  const input = exampleInputText(example);
  if (!data || data.length === 0) return null;
  return data.map((d) => ({ token_str: d.label, score: d.score, sequence: input.includes("<mask>") ? input.replace("<mask>", d.label) : "" }));
}

/** Question answering: the answer (no score: the guide gives none) and the context it is found in. */
export function exampleQuestionAnswer(example: TaskExample): { output: { answer: string }; context: string } | null {
  const [, context] = texts(example, "inputs");
  const [answer] = texts(example, "outputs");
  return answer === undefined || context === undefined ? null : { output: { answer }, context };
}

/** Sentence similarity: the guide's chart is one score per compared sentence, in order. */
export function exampleSimilarity(example: TaskExample): { scores: number[]; sentences: string[] } | null {
  const data = chart(example);
  return data && data.length > 0 ? { scores: data.map((d) => d.score), sentences: data.map((d) => d.label) } : null;
}

/**
 * Table question answering: the answer, and the table. The guide gives no coordinates; a cell is
 * marked only when it is the one cell of the table holding exactly the answer.
 */
export function exampleTableAnswer(example: TaskExample): { output: { answer: string; cells: string[]; coordinates: Array<[number, number]> }; rows: string[][] } | null {
  const table = entriesOf(example.inputs, "tabular")[0]?.table;
  const [answer] = texts(example, "outputs");
  if (!table || table.length < 2 || answer === undefined) return null;
  const matches = table.slice(1).flatMap((row, r) => row.flatMap((cell, c): Array<[number, number]> => (cell.trim() === answer.trim() ? [[r, c]] : [])));
  const coordinates = matches.length === 1 ? matches : [];
  return { output: { answer, cells: coordinates.length === 1 ? [answer] : [], coordinates }, rows: table.map((r) => [...r]) };
}

/** Visual and document QA: the chart's answers with their scores, or the one answer in words without a score. */
export function exampleScoredAnswers(example: TaskExample): Array<{ answer: string; score?: number }> | null {
  const data = chart(example);
  if (data && data.length > 0) return data.map((d) => ({ answer: d.label, score: d.score }));
  const [answer] = texts(example, "outputs");
  return answer === undefined ? null : [{ answer }];
}

/** Speech recognition: the transcript. */
export function exampleTranscript(example: TaskExample): { text: string } | null {
  const [text] = texts(example, "outputs");
  return text === undefined ? null : { text };
}

/**
 * Tabular tasks: the input rows and the guide's one-column output table, a value per row, with
 * that column's name (the guide's "Diabetes", "MPG (miles per gallon)").
 */
export function exampleTabular(example: TaskExample): { rows: string[][]; predictions: string[]; header: string } | null {
  const input = entriesOf(example.inputs, "tabular")[0]?.table;
  const output = entriesOf(example.outputs, "tabular")[0]?.table;
  if (!input || !output || output.length !== input.length || output.some((row) => row.length !== 1)) return null;
  const [[header = ""] = [], ...values] = output;
  return { rows: input.map((r) => [...r]), predictions: values.map((row) => row[0] ?? ""), header };
}

/** Where the guide's example input image lives, when the server knows its asset host. */
export function exampleInputImageUrl(example: TaskExample | null): string | undefined {
  for (const entry of example?.inputs ?? []) if (entry.type === "media" && entry.kind === "image" && entry.url) return entry.url;
  return undefined;
}

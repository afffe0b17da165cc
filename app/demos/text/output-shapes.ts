/**
 * Provider answers (as @huggingface/inference 3.13.1 returns them through the gateway) shaped for
 * the text widgets. Each returns null when the answer is not in a shape it knows, so the widget
 * says so instead of drawing something wrong.
 */
import type { Span } from "#app/demos/shared/highlighted-text.tsx";
import type { LabelScore } from "#app/demos/shared/label-score-chart.tsx";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

const byScore = (a: LabelScore, b: LabelScore) => b.score - a.score;

/** [{label, score}] (or the same nested once, one list per input), highest first. */
export function labelScores(output: unknown): LabelScore[] | null {
  const list: unknown = Array.isArray(output) && output.length === 1 && Array.isArray(output[0]) ? output[0] : output;
  if (!Array.isArray(list)) return null;
  const items = list.flatMap((x): LabelScore[] => (isRecord(x) && typeof x["label"] === "string" && isNum(x["score"]) ? [{ label: x["label"], score: x["score"] }] : []));
  return items.length === list.length && items.length > 0 ? items.sort(byScore) : null;
}

/** Zero-shot: [{sequence, labels, scores}] (3.13.1's hf-inference shape), or plain label/score pairs. */
export function zeroShotScores(output: unknown): LabelScore[] | null {
  const first: unknown = Array.isArray(output) ? output[0] : output;
  if (isRecord(first) && Array.isArray(first["labels"]) && Array.isArray(first["scores"])) {
    const labels = first["labels"];
    const scores = first["scores"];
    if (labels.length !== scores.length || !labels.every((l) => typeof l === "string") || !scores.every(isNum)) return null;
    return labels.map((label: string, i) => ({ label, score: scores[i] as number })).sort(byScore);
  }
  return labelScores(output);
}

/** Entities as spans of `text`: in order, within the text, overlaps dropped. */
export function entitySpans(text: string, output: unknown): Array<Span & { score: number; word: string }> | null {
  if (!Array.isArray(output)) return null;
  const spans = output.flatMap((x) => {
    if (!isRecord(x)) return [];
    const label = typeof x["entity_group"] === "string" ? x["entity_group"] : typeof x["entity"] === "string" ? x["entity"] : null;
    const start = x["start"];
    const end = x["end"];
    if (label === null || !isNum(start) || !isNum(end) || start < 0 || end > text.length || end <= start) return [];
    return [{ start, end, label, score: isNum(x["score"]) ? x["score"] : 0, word: typeof x["word"] === "string" ? x["word"] : text.slice(start, end) }];
  });
  spans.sort((a, b) => a.start - b.start);
  const kept: typeof spans = [];
  for (const s of spans) if (kept.length === 0 || s.start >= (kept.at(-1)?.end ?? 0)) kept.push(s);
  return output.length === 0 || kept.length > 0 ? kept : null;
}

export interface MaskCandidate {
  token: string;
  score: number;
  sequence: string;
}

/** Fill-mask candidates, highest score first. */
export function fillMaskCandidates(output: unknown): MaskCandidate[] | null {
  if (!Array.isArray(output) || output.length === 0) return null;
  const list = output.flatMap((x): MaskCandidate[] =>
    isRecord(x) && typeof x["token_str"] === "string" && isNum(x["score"])
      ? [{ token: x["token_str"], score: x["score"], sequence: typeof x["sequence"] === "string" ? x["sequence"] : "" }]
      : [],
  );
  return list.length === output.length ? list.sort((a, b) => b.score - a.score) : null;
}

/** The answer and where it sits in the context (found by text when the offsets do not match it). */
export function qaAnswer(output: unknown, context: string): { answer: string; score: number | null; span: Span | null } | null {
  const first: unknown = Array.isArray(output) ? output[0] : output;
  if (!isRecord(first) || typeof first["answer"] !== "string") return null;
  const answer = first["answer"];
  const score = isNum(first["score"]) ? first["score"] : null;
  const start = first["start"];
  const end = first["end"];
  if (isNum(start) && isNum(end) && end > start && context.slice(start, end).trim() === answer.trim()) return { answer, score, span: { start, end, label: "answer" } };
  const at = answer === "" ? -1 : context.indexOf(answer);
  return { answer, score, span: at >= 0 ? { start: at, end: at + answer.length, label: "answer" } : null };
}

/** The text of summarization, translation and text-generation answers (one object, or a list of them). */
export function generatedText(output: unknown, key: "summary_text" | "translation_text" | "generated_text"): string | null {
  const first: unknown = Array.isArray(output) ? output[0] : output;
  return isRecord(first) && typeof first[key] === "string" ? first[key] : null;
}

/** A vector's shape ([384], [1, 7, 768]) and its first numbers. */
export function vectorSummary(output: unknown, previewLength = 8): { shape: number[]; preview: number[]; norm: number | null } | null {
  const shape: number[] = [];
  let level: unknown = output;
  while (Array.isArray(level)) {
    shape.push(level.length);
    level = level[0];
  }
  if (shape.length === 0 || !isNum(level)) return null;
  const flat: number[] = [];
  const walk = (v: unknown): boolean => (Array.isArray(v) ? v.every(walk) : isNum(v) ? (flat.push(v), true) : false);
  if (!walk(output)) return null;
  const first = shape.length === 1 ? flat : (flat.slice(0, shape.at(-1)));
  const norm = Math.sqrt(first.reduce((s, x) => s + x * x, 0));
  return { shape, preview: flat.slice(0, previewLength), norm: Number.isFinite(norm) ? norm : null };
}

/** One score per compared sentence, in the order the sentences were given. */
export function similarityScores(output: unknown, sentences: readonly string[]): LabelScore[] | null {
  if (!Array.isArray(output) || output.length !== sentences.length || !output.every(isNum)) return null;
  return sentences.map((label, i) => ({ label, score: output[i] as number }));
}

export interface TableAnswer {
  answer: string;
  cells: string[];
  /** [row, column] of each cell, rows counted without the header. */
  coordinates: Array<[number, number]>;
  aggregator: string | null;
}

export function tableAnswer(output: unknown): TableAnswer | null {
  const first: unknown = Array.isArray(output) ? output[0] : output;
  if (!isRecord(first) || typeof first["answer"] !== "string") return null;
  const cells = Array.isArray(first["cells"]) ? first["cells"].filter((c): c is string => typeof c === "string") : [];
  const coordinates = Array.isArray(first["coordinates"])
    ? first["coordinates"].flatMap((c): Array<[number, number]> => (Array.isArray(c) && isNum(c[0]) && isNum(c[1]) ? [[c[0], c[1]]] : []))
    : [];
  const aggregator = typeof first["aggregator"] === "string" && first["aggregator"] !== "NONE" ? first["aggregator"] : null;
  return { answer: first["answer"], cells, coordinates, aggregator };
}

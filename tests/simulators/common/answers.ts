// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
import { audioDurationSeconds, seedBytes, sniffMedia } from "../media.ts";
import { round4, shortHash, unitFromText, words } from "./util.ts";

// Deterministic task answers: the same request always gets the same answer.

const POSITIVE = new Set(["love", "like", "good", "great", "happy", "excellent", "wonderful", "sunny", "best", "nice"]);
const NEGATIVE = new Set(["hate", "bad", "awful", "terrible", "sad", "worst", "horrible", "angry", "poor"]);
const IMAGE_LABELS = ["tabby cat", "golden retriever", "sports car", "sunflower", "lighthouse", "espresso", "mountain bike", "red fox"];

export function textClassification(text: string): Array<{ label: string; score: number }> {
  let balance = 0;
  for (const w of words(text.toLowerCase().replace(/[^a-z\s]/g, " "))) {
    if (POSITIVE.has(w)) balance++;
    if (NEGATIVE.has(w)) balance--;
  }
  const positive = balance === 0 ? 0.5 + (unitFromText(text) - 0.5) * 0.2 : balance > 0 ? 0.9 + unitFromText(text) * 0.09 : 0.01 + unitFromText(text) * 0.09;
  const pos = round4(positive);
  const neg = round4(1 - positive);
  return pos >= neg ? [{ label: "POSITIVE", score: pos }, { label: "NEGATIVE", score: neg }] : [{ label: "NEGATIVE", score: neg }, { label: "POSITIVE", score: pos }];
}

export function tokenClassification(text: string): Array<{ entity_group: string; score: number; word: string; start: number; end: number }> {
  const groups = ["PER", "ORG", "LOC", "MISC"];
  const out: Array<{ entity_group: string; score: number; word: string; start: number; end: number }> = [];
  for (const m of text.matchAll(/\b[A-Z][a-zA-Z]+(?:\s+[A-Z][a-zA-Z]+)*/g)) {
    const word = m[0];
    const start = m.index;
    out.push({
      entity_group: groups[(seedBytes(word)[0] ?? 0) % groups.length] ?? "MISC",
      score: round4(0.85 + unitFromText(word) * 0.14),
      word,
      start,
      end: start + word.length,
    });
  }
  return out;
}

const MASK_TOKENS = ["[MASK]", "<mask>"];
const FILLERS = ["paris", "life", "music", "science", "home"];

export function fillMask(text: string): Array<{ score: number; token: number; token_str: string; sequence: string }> | null {
  const mask = MASK_TOKENS.find((t) => text.includes(t));
  if (!mask) return null;
  let remaining = 1;
  return FILLERS.map((filler, i) => {
    const score = round4(i === FILLERS.length - 1 ? remaining * 0.5 : remaining * 0.5);
    remaining -= score;
    return {
      score,
      token: 1000 + (seedBytes(filler)[0] ?? 0) * 10 + i,
      token_str: filler,
      sequence: text.replace(mask, filler).replace(/\s+/g, " ").toLowerCase(),
    };
  });
}

export function questionAnswering(question: string, context: string): { answer: string; score: number; start: number; end: number } {
  const questionWords = new Set(words(question.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, " ")));
  let best = { word: "", start: 0 };
  for (const m of context.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (questionWords.has(w.toLowerCase())) continue;
    if (w.length > best.word.length) best = { word: w, start: m.index };
  }
  return { answer: best.word, score: round4(0.5 + unitFromText(question + context) * 0.49), start: best.start, end: best.start + best.word.length };
}

export function summarize(text: string): string {
  const firstSentence = text.split(/(?<=[.!?])\s+/)[0] ?? text;
  const w = words(firstSentence);
  return w.length > 30 ? `${w.slice(0, 30).join(" ")}...` : firstSentence.trim();
}

export function embedding(text: string, dims = 32): number[] {
  const values: number[] = [];
  let seed = seedBytes(text);
  while (values.length < dims) {
    for (let i = 0; i + 1 < seed.length && values.length < dims; i += 2) {
      values.push(((seed.readUInt16BE(i) / 65535) * 2 - 1));
    }
    seed = seedBytes(seed.toString("hex"));
  }
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0)) || 1;
  return values.map((v) => round4(v / norm));
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return round4(dot);
}

export function imageClassification(bytes: Buffer): Array<{ label: string; score: number }> {
  const hash = seedBytes(bytes.toString("base64"));
  const start = (hash[0] ?? 0) % IMAGE_LABELS.length;
  let remaining = 1;
  const out: Array<{ label: string; score: number }> = [];
  for (let i = 0; i < 5; i++) {
    const score = round4(remaining * 0.6);
    remaining -= score;
    out.push({ label: IMAGE_LABELS[(start + i) % IMAGE_LABELS.length] ?? "object", score });
  }
  return out;
}

export function transcript(audio: Buffer): string {
  const kind = sniffMedia(audio);
  const seconds = audioDurationSeconds(audio);
  const duration = seconds === null ? `${audio.length} bytes` : `${seconds.toFixed(2)} seconds`;
  return `Simulated transcript of ${duration} of ${kind} audio (${shortHash(audio.toString("base64"), 8)}).`;
}

export const SOUNDFILE_ERROR =
  "Soundfile is either not in the correct format or is malformed. Ensure that the soundfile has a valid audio file extension (e.g. wav, flac or mp3) and is not corrupted. If reading from a remote URL, ensure that the URL is the full address to **download** the audio file.";

/** Zero-shot: every candidate label scored from the text, normalised to sum to 1, highest first. */
export function zeroShot(text: string, labels: readonly string[]): { sequence: string; labels: string[]; scores: number[] } {
  const lowered = text.toLowerCase();
  const raw = labels.map((label) => (lowered.includes(label.toLowerCase()) ? 4 : 0) + 0.2 + unitFromText(`${text}\u0000${label}`));
  const total = raw.reduce((s, v) => s + v, 0) || 1;
  const ranked = labels.map((label, i) => ({ label, score: round4((raw[i] ?? 0) / total) })).sort((a, b) => b.score - a.score);
  return { sequence: text, labels: ranked.map((r) => r.label), scores: ranked.map((r) => r.score) };
}

/**
 * Table question answering (TAPAS's answer shape): the cell in the row a query word names and
 * the column whose header the query mentions; the first cell when nothing matches.
 */
export function tableQuestionAnswering(query: string, table: Readonly<Record<string, readonly string[]>>): { answer: string; coordinates: number[][]; cells: string[]; aggregator: string } {
  const q = query.toLowerCase();
  const columns = Object.keys(table);
  const height = Math.max(0, ...columns.map((c) => table[c]?.length ?? 0));
  const column = Math.max(0, columns.findIndex((c) => words(c.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, " ")).some((w) => w.length > 3 && q.includes(w))));
  let row = 0;
  for (let r = 0; r < height; r++) {
    if (columns.some((c, i) => i !== column && (table[c]?.[r] ?? "").trim() !== "" && q.includes((table[c]?.[r] ?? "").toLowerCase()))) {
      row = r;
      break;
    }
  }
  const cell = table[columns[column] ?? ""]?.[row] ?? "";
  return { answer: cell, coordinates: [[row, column]], cells: [cell], aggregator: "NONE" };
}

// Part of the inference PROVIDER SIMULATOR: a test tool, never a provider the product ships.
//
// Deterministic answers for the vision, audio, multimodal and tabular tasks, in hf-inference's
// shapes: the same bytes or table always get the same answer.
import { makeFlac, makePng, seedBytes } from "../media.ts";
import { imageClassification } from "./answers.ts";
import { round4, unitFromText, words } from "./util.ts";

const DETECTED = ["cat", "remote", "couch", "dog", "bicycle", "person"];
const SEGMENTS = ["sky", "building", "road", "tree"];

/** The width and height of a PNG (its IHDR); 16 x 16 for anything else. */
export function imageSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.length >= 24 && bytes.subarray(12, 16).toString("ascii") === "IHDR") return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  return { width: 16, height: 16 };
}

/** Two to four boxes inside the image, labelled and scored from its bytes. */
export function objectDetection(bytes: Buffer): Array<{ label: string; score: number; box: { xmin: number; ymin: number; xmax: number; ymax: number } }> {
  const seed = seedBytes(bytes.toString("base64"));
  const { width, height } = imageSize(bytes);
  const count = 2 + ((seed[0] ?? 0) % 3);
  return Array.from({ length: count }, (_, i) => {
    const x = ((seed[1 + i] ?? 0) / 255) * (width / 2);
    const y = ((seed[5 + i] ?? 0) / 255) * (height / 2);
    return {
      label: DETECTED[((seed[9 + i] ?? 0) + i) % DETECTED.length] ?? "object",
      score: round4(0.6 + ((seed[13 + i] ?? 0) / 255) * 0.39),
      box: { xmin: Math.round(x), ymin: Math.round(y), xmax: Math.round(x + width / 2), ymax: Math.round(y + height / 2) },
    };
  });
}

/** One mask per segment: a PNG of the input's size (base64), as hf-inference's segmentation pipeline answers. */
export function imageSegmentation(bytes: Buffer): Array<{ label: string; score: number; mask: string }> {
  const seed = seedBytes(bytes.toString("base64"));
  const { width } = imageSize(bytes);
  const count = 2 + ((seed[0] ?? 0) % 2);
  return Array.from({ length: count }, (_, i) => ({
    label: SEGMENTS[(i + (seed[1] ?? 0)) % SEGMENTS.length] ?? "segment",
    score: round4(0.7 + ((seed[2 + i] ?? 0) / 255) * 0.29),
    mask: makePng(`${bytes.length}:mask:${i}`, Math.min(64, width)).toString("base64"),
  }));
}

export function imageCaption(bytes: Buffer): string {
  const [top] = imageClassification(bytes);
  return `a simulated photo of a ${top?.label ?? "thing"}`;
}

/** Zero-shot image classification: the candidate labels scored from the image, summing to 1. */
export function zeroShotImage(bytes: Buffer, labels: readonly string[]): Array<{ label: string; score: number }> {
  const key = bytes.toString("base64").slice(0, 200);
  const raw = labels.map((label) => 0.2 + unitFromText(`${key}\u0000${label}`));
  const total = raw.reduce((s, v) => s + v, 0) || 1;
  return labels.map((label, i) => ({ label, score: round4((raw[i] ?? 0) / total) })).sort((a, b) => b.score - a.score);
}

/** Visual question answering: answers ranked, the top one read off the image's classification. */
export function visualQuestionAnswering(bytes: Buffer, question: string): Array<{ answer: string; score: number }> {
  const labels = imageClassification(bytes).map((l) => l.label);
  const yesNo = /^(is|are|does|do|can)\b/i.test(question.trim());
  const answers = yesNo ? ["yes", "no"] : labels.slice(0, 3);
  const first = round4(0.55 + unitFromText(question) * 0.4);
  return answers.map((answer, i) => ({ answer, score: i === 0 ? first : round4((1 - first) / (answers.length - 1 || 1)) }));
}

/** Document question answering: a word span "read" from the document, with word offsets. */
export function documentQuestionAnswering(bytes: Buffer, question: string): Array<{ answer: string; score: number; start: number; end: number }> {
  const seed = seedBytes(`${bytes.length}:${question}`);
  const fields = ["$1,234.00", "2024-03-15", "ACME Corporation", "INV-0042"];
  const answer = /date|when/i.test(question) ? "2024-03-15" : /total|amount|much/i.test(question) ? "$1,234.00" : (fields[(seed[0] ?? 0) % fields.length] ?? "");
  const start = (seed[1] ?? 0) % 40;
  return [{ answer, score: round4(0.5 + unitFromText(question) * 0.49), start, end: start + words(answer).length - 1 }];
}

/** Audio classification labels scored from the audio bytes. */
export function audioClassification(bytes: Buffer): Array<{ label: string; score: number }> {
  const labels = ["speech", "music", "dog bark", "applause", "silence"];
  const seed = seedBytes(bytes.toString("base64").slice(0, 4000));
  let remaining = 1;
  const start = (seed[0] ?? 0) % labels.length;
  return labels.map((_, i) => {
    const score = round4(i === labels.length - 1 ? remaining : remaining * 0.55);
    remaining -= score;
    return { label: labels[(start + i) % labels.length] ?? "sound", score };
  });
}

/** Audio-to-audio (source separation): two WAV tracks, base64, in hf-inference's {blob, content-type, label} shape. */
export function audioToAudio(bytes: Buffer): Array<{ label: string; "content-type": string; blob: string }> {
  const key = bytes.toString("base64").slice(0, 200);
  return ["speech", "noise"].map((label) => ({ label, "content-type": "audio/flac", blob: makeFlac(`${key}:${label}`).toString("base64") }));
}

/** Tabular classification and regression: one number per row, from the row's cells. */
export function tabularPredictions(data: Readonly<Record<string, readonly string[]>>, kind: "classification" | "regression"): number[] {
  const columns = Object.keys(data);
  const rows = Math.max(0, ...columns.map((c) => data[c]?.length ?? 0));
  return Array.from({ length: rows }, (_, r) => {
    const key = columns.map((c) => data[c]?.[r] ?? "").join("\u0000");
    return kind === "classification" ? Math.floor(unitFromText(key) * 3) : round4(50 + unitFromText(key) * 450);
  });
}

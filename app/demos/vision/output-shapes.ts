/**
 * Provider answers for the vision widgets (as @huggingface/inference 3.13.1 returns them through
 * the gateway), shaped for drawing. Each returns null when the answer is not in a shape it knows,
 * so the widget shows it raw instead of drawing something wrong.
 */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Tailwind's 700 shades: white label text reads on each at 4.5:1 or more, and they stay apart. */
export const PALETTE = ["#be123c", "#1d4ed8", "#15803d", "#b45309", "#7e22ce", "#0e7490", "#be185d", "#4d7c0f", "#c2410c", "#4338ca"] as const;

/** One colour per distinct label, in order of first appearance. */
export function labelColours(labels: readonly string[]): Map<string, string> {
  const colours = new Map<string, string>();
  for (const label of labels) if (!colours.has(label)) colours.set(label, PALETTE[colours.size % PALETTE.length] ?? "#be123c");
  return colours;
}

export interface Box {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

export interface Detection {
  label: string;
  score: number;
  box: Box;
}

/** Object detection: [{label, score, box: {xmin, ymin, xmax, ymax}}], highest score first. */
export function detections(output: unknown): Detection[] | null {
  if (!Array.isArray(output)) return null;
  const list = output.flatMap((x): Detection[] => {
    if (!isRecord(x) || typeof x["label"] !== "string" || !isNum(x["score"]) || !isRecord(x["box"])) return [];
    const b = x["box"];
    if (!isNum(b["xmin"]) || !isNum(b["ymin"]) || !isNum(b["xmax"]) || !isNum(b["ymax"])) return [];
    return [{ label: x["label"], score: x["score"], box: { xmin: b["xmin"], ymin: b["ymin"], xmax: b["xmax"], ymax: b["ymax"] } }];
  });
  return list.length === output.length ? list.sort((a, b) => b.score - a.score) : null;
}

/** A box in percent of the image, clamped to it: an SVG over the image draws it at any display size. */
export interface PercentRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** A box in the image's pixels as percentages of its natural size; null when nothing of it is inside. */
export function boxToPercent(box: Box, size: { width: number; height: number }): PercentRect | null {
  if (size.width <= 0 || size.height <= 0) return null;
  const x0 = clamp(Math.min(box.xmin, box.xmax), 0, size.width);
  const x1 = clamp(Math.max(box.xmin, box.xmax), 0, size.width);
  const y0 = clamp(Math.min(box.ymin, box.ymax), 0, size.height);
  const y1 = clamp(Math.max(box.ymin, box.ymax), 0, size.height);
  if (x1 <= x0 || y1 <= y0) return null;
  const pct = (v: number, of: number) => Math.round((v / of) * 10000) / 100;
  return { x: pct(x0, size.width), y: pct(y0, size.height), width: pct(x1 - x0, size.width), height: pct(y1 - y0, size.height) };
}

export interface Segment {
  label: string;
  score: number | null;
  /** The mask as a base64 PNG, white where the segment is. */
  mask: string;
}

/** Base64 of a PNG starts with the encoded signature \x89PNG\r\n\x1a\n. */
const PNG_BASE64 = "iVBORw0KGgo";

/** Image segmentation: [{label, score?, mask: base64 PNG}]; a mask that is not a PNG makes it unknown. */
export function segments(output: unknown): Segment[] | null {
  if (!Array.isArray(output) || output.length === 0) return null;
  const list = output.flatMap((x): Segment[] => {
    if (!isRecord(x) || typeof x["label"] !== "string" || typeof x["mask"] !== "string") return [];
    const mask = x["mask"].replace(/^data:image\/png;base64,/, "");
    if (!mask.startsWith(PNG_BASE64)) return [];
    return [{ label: x["label"], score: isNum(x["score"]) ? x["score"] : null, mask }];
  });
  return list.length === output.length ? list : null;
}

export interface LegendEntry {
  /** The label, numbered when several segments share it ("person 2"). */
  name: string;
  label: string;
  score: number | null;
  colour: string;
}

/** One legend entry per segment, in the answer's order; segments sharing a label share its colour. */
export function segmentLegend(list: readonly Segment[]): LegendEntry[] {
  const colours = labelColours(list.map((s) => s.label));
  const total = new Map<string, number>();
  for (const s of list) total.set(s.label, (total.get(s.label) ?? 0) + 1);
  const seen = new Map<string, number>();
  return list.map((s) => {
    const n = (seen.get(s.label) ?? 0) + 1;
    seen.set(s.label, n);
    return { name: (total.get(s.label) ?? 0) > 1 ? `${s.label} ${n}` : s.label, label: s.label, score: s.score, colour: colours.get(s.label) ?? "#be123c" };
  });
}

/** "#2563eb" as [r, g, b]. */
export function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace(/^#/, ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * A decoded mask (RGBA pixels, as a canvas reads them) as a tinted overlay: the segment's colour
 * where the mask is bright, at up to `opacity`, and clear elsewhere. Grey masks read by brightness.
 */
export function tintMask(pixels: Uint8ClampedArray, colour: [number, number, number], opacity = 0.55): Uint8ClampedArray {
  const out = new Uint8ClampedArray(pixels.length);
  for (let i = 0; i + 3 < pixels.length; i += 4) {
    const lum = ((pixels[i] ?? 0) + (pixels[i + 1] ?? 0) + (pixels[i + 2] ?? 0)) / 3;
    const coverage = (lum / 255) * ((pixels[i + 3] ?? 0) / 255);
    out[i] = colour[0];
    out[i + 1] = colour[1];
    out[i + 2] = colour[2];
    out[i + 3] = Math.round(coverage * opacity * 255);
  }
  return out;
}

export interface ScoredAnswer {
  answer: string;
  score: number | null;
}

/** Visual and document QA: [{answer, score?, …}] (or one object), in the order given. */
export function scoredAnswers(output: unknown): ScoredAnswer[] | null {
  const list: unknown[] = Array.isArray(output) ? output : [output];
  const answers = list.flatMap((x): ScoredAnswer[] => (isRecord(x) && typeof x["answer"] === "string" ? [{ answer: x["answer"], score: isNum(x["score"]) ? x["score"] : null }] : []));
  return answers.length === list.length && answers.length > 0 ? answers : null;
}

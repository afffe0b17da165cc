import { diffChars, diffLines } from "diff";

/** Diffs for the lab's compare mode (kept apart so the model page never bundles `diff`). */

export interface OutputComparison {
  identical: boolean;
  /** Characters only in the first output, and only in the second. */
  removedChars: number;
  addedChars: number;
  /** Ranges of the first text that the second lacks, and of the second that the first lacks. */
  changedA: Array<[number, number]>;
  changedB: Array<[number, number]>;
}

/** Above this size a character diff gets slow; whole lines are compared instead. */
const CHAR_DIFF_LIMIT = 30_000;

/** Where two rendered prompts differ, as ranges on each side, for a side-by-side view. */
export function compareOutputs(a: string, b: string): OutputComparison {
  if (a === b) return { identical: true, removedChars: 0, addedChars: 0, changedA: [], changedB: [] };
  const parts = a.length + b.length <= CHAR_DIFF_LIMIT ? diffChars(a, b) : diffLines(a, b);
  const changedA: Array<[number, number]> = [];
  const changedB: Array<[number, number]> = [];
  let ia = 0;
  let ib = 0;
  let removedChars = 0;
  let addedChars = 0;
  for (const part of parts) {
    const n = part.value.length;
    if (part.added) {
      changedB.push([ib, ib + n]);
      ib += n;
      addedChars += n;
    } else if (part.removed) {
      changedA.push([ia, ia + n]);
      ia += n;
      removedChars += n;
    } else {
      ia += n;
      ib += n;
    }
  }
  return { identical: false, removedChars, addedChars, changedA, changedB };
}

export interface SourceDiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

/** A line diff of two template sources, for the lab's "template diff" view. */
export function diffTemplateSources(a: string, b: string): SourceDiffLine[] {
  const out: SourceDiffLine[] = [];
  for (const part of diffLines(a, b)) {
    const kind = part.added ? "added" : part.removed ? "removed" : "same";
    const lines = part.value.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const text of lines) out.push({ kind, text });
  }
  return out;
}

import { describe, expect, it } from "vitest";
import { formatSummary } from "#cli/progress.ts";

const summary = (rows: number) => ({ rows, inserted: rows, updated: 0, unchanged: 0, rejected: 0, source: "x.jsonl", elapsedMs: 2_000, rejections: [] });

describe("formatSummary", () => {
  it("counts one row as a row and more as rows", () => {
    expect(formatSummary(summary(1))).toBe("Imported 1 row in 2.0 s (1 rows/s): 1 inserted, 0 updated, 0 unchanged, 0 rejected.");
    expect(formatSummary(summary(12_000))).toBe("Imported 12,000 rows in 2.0 s (6,000 rows/s): 12,000 inserted, 0 updated, 0 unchanged, 0 rejected.");
  });
});

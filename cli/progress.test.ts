import { describe, expect, it } from "vitest";
import { createProgressReporter, formatSummary } from "#cli/progress.ts";

const summary = (rows: number) => ({ rows, inserted: rows, updated: 0, unchanged: 0, rejected: 0, source: "x.jsonl", elapsedMs: 2_000, rejections: [] });

describe("formatSummary", () => {
  it("counts one row as a row and more as rows", () => {
    expect(formatSummary(summary(1))).toBe("Imported 1 row in 2.0 s (1 rows/s): 1 inserted, 0 updated, 0 unchanged, 0 rejected.");
    expect(formatSummary(summary(12_000))).toBe("Imported 12,000 rows in 2.0 s (6,000 rows/s): 12,000 inserted, 0 updated, 0 unchanged, 0 rejected.");
  });
});

describe("createProgressReporter", () => {
  const progress = { rows: 4_000, inserted: 3_000, updated: 500, unchanged: 400, rejected: 100, source: "x.jsonl", elapsedMs: 2_000, rejections: [] };
  const pipe = () => {
    const written: string[] = [];
    return { written, stream: { isTTY: false, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream };
  };

  it("writes log lines, not a bar, when its stream is not a terminal", () => {
    const lines: Array<[Record<string, number>, string]> = [];
    const { written, stream } = pipe();
    const reporter = createProgressReporter(stream, (fields, message) => lines.push([fields, message]));
    reporter.update(progress);
    reporter.update(progress);
    expect(written).toEqual([]);
    expect(lines).toEqual([[{ rows: 4_000, inserted: 3_000, updated: 500, unchanged: 400, rejected: 100, rows_per_s: 2_000 }, "import progress"]]);
  });

  it("writes plain lines without a log", () => {
    const { written, stream } = pipe();
    createProgressReporter(stream).update(progress);
    expect(written).toEqual(["progress: 4,000 rows · 3,000 new · 500 updated · 400 unchanged · 100 rejected · 2,000 rows/s\n"]);
  });
});

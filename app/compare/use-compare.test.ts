import { describe, expect, it } from "vitest";
import type { CompareColumnInfo, CompareInfo } from "#app/compare/compare-info.ts";
import { type ColumnState, initialColumns, reconcileColumns } from "#app/compare/use-compare.ts";

const col = (modelId: string, route: string, problem: string | null = null): CompareColumnInfo => ({ modelId, route, label: route, problem, snippet: null });
const info = (columns: CompareColumnInfo[]): CompareInfo => ({
  task: "text-generation",
  taskParameters: [],
  taskLabel: "Chat",
  columns,
  problems: [],
  parameters: {
    temperature: { min: 0, max: 2, step: 0.1, default: 1, description: "" },
    max_tokens: { min: 1, max: 4096, step: 1, default: 512, description: "" },
    top_p: { min: 0, max: 1, step: 0.01, default: 1, description: "" },
  },
  inputs: { text: "", context: "", candidateLabels: [], sentences: [], table: [] },
  deadlineMs: 60_000,
  serverKey: false,
  modelyardVersion: "0.0.0", from: null,
});

describe("reconcileColumns", () => {
  it("keeps each remaining column's conversation and overrides, adds new columns empty, drops removed ones", () => {
    const before = initialColumns(info([col("org/a", "together"), col("org/b", "groq")]));
    const talked: ColumnState[] = before.map((c, i) => ({
      ...c,
      overrides: i === 0 ? { temperature: 0.3 } : {},
      turns: [
        { id: 1, role: "user", content: "hi", status: "done", metrics: null, error: null },
        { id: 2, role: "assistant", content: `reply ${i}`, status: "done", metrics: null, error: null },
      ],
    }));
    const added = reconcileColumns(talked, info([col("org/a", "together"), col("org/b", "groq"), col("org/c", "fireworks-ai")]));
    expect(added.map((c) => c.key)).toEqual(["org/a@together", "org/b@groq", "org/c@fireworks-ai"]);
    expect(added[0]?.turns.map((t) => t.content)).toEqual(["hi", "reply 0"]);
    expect(added[0]?.overrides).toEqual({ temperature: 0.3 });
    expect(added[2]?.turns).toEqual([]);

    const removed = reconcileColumns(added, info([col("org/b", "groq", "now unavailable"), col("org/c", "fireworks-ai")]));
    expect(removed.map((c) => c.key)).toEqual(["org/b@groq", "org/c@fireworks-ai"]);
    expect(removed[0]?.turns.map((t) => t.content)).toEqual(["hi", "reply 1"]);
    // The server's fresh resolution wins over the one the column had.
    expect(removed[0]?.info.problem).toBe("now unavailable");
  });
});

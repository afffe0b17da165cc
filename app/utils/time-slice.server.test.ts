import { afterEach, describe, expect, it } from "vitest";
import { FIXED_SLICE_ROWS, createSliceSizer } from "#app/utils/time-slice.server.ts";

describe("slice sizer", () => {
  afterEach(() => {
    delete process.env["MODELYARD_BACKGROUND_SLICES"];
  });

  it("shrinks a slow slice to the budget at once and grows a fast one at most twofold a step", () => {
    const s = createSliceSizer({ initial: 1_000, min: 25, max: 4_000, budgetMs: 2 });
    s.record(10, 1_000); // 100 rows/ms → 200 rows for 2 ms
    expect(s.size).toBe(200);
    s.record(0.1, 200); // very fast: still only doubles
    expect(s.size).toBe(400);
    s.record(1_000, 400); // pathological: never below the floor
    expect(s.size).toBe(25);
  });

  it("keeps today's fixed slices when the benchmark asks for them", () => {
    process.env["MODELYARD_BACKGROUND_SLICES"] = "fixed";
    const s = createSliceSizer({ initial: 10, min: 1, max: 20 });
    s.record(100, 10);
    expect(s.size).toBe(FIXED_SLICE_ROWS);
  });
});

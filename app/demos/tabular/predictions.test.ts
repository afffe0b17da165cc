import { describe, expect, it } from "vitest";
import { formatPrediction, rowPredictions, tabularData } from "#app/demos/tabular/predictions.ts";

describe("tabular predictions", () => {
  it("takes one prediction per row, and nothing else", () => {
    expect(rowPredictions([1, 0, 2], 3)).toEqual([1, 0, 2]);
    expect(rowPredictions([["a", "b"]], 2)).toEqual(["a", "b"]);
    expect(rowPredictions([1, 0], 3)).toBeNull();
    expect(rowPredictions([{ label: "x" }], 1)).toBeNull();
    expect(rowPredictions({ predictions: [1] }, 1)).toBeNull();
  });

  it("formats regressions for reading and classes as they came", () => {
    expect(formatPrediction(123.456, "regression")).toBe("123.5");
    expect(formatPrediction(1.23456, "regression")).toBe("1.235");
    expect(formatPrediction(7, "regression")).toBe("7");
    expect(formatPrediction(1, "classification")).toBe("1");
    expect(formatPrediction("red", "classification")).toBe("red");
  });

  it("turns the table into the spec's columns, dropping blank rows and unnamed columns", () => {
    expect(tabularData([["A", "", "B"], ["1", "x", " 2 "], ["", "", ""]])).toEqual({ data: { A: ["1"], B: ["2"] }, rowCount: 1 });
    expect(tabularData([[""], ["1"]])).toEqual({ problem: "Name at least one column." });
    expect(tabularData([["A"], [""]])).toEqual({ problem: "Fill in at least one row." });
    expect(tabularData([["A", "A"], ["1", "2"]])).toEqual({ problem: "Two columns have the same name." });
  });
});

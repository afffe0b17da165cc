/** Tabular answers: one prediction per row (a class or a number), as 3.13.1 returns them. */

export type Prediction = string | number;

/** The predictions when there is one per row, else null (the widget then shows the raw answer). */
export function rowPredictions(output: unknown, rowCount: number): Prediction[] | null {
  const list: unknown = Array.isArray(output) && output.length === 1 && Array.isArray(output[0]) ? output[0] : output;
  if (!Array.isArray(list) || list.length !== rowCount) return null;
  const ok = list.every((p) => typeof p === "string" || (typeof p === "number" && Number.isFinite(p)));
  return ok ? (list as Prediction[]) : null;
}

/** A regression's number rounded for reading; classes as they came. */
export function formatPrediction(p: Prediction, kind: "classification" | "regression"): string {
  if (typeof p === "string" || kind === "classification") return String(p);
  return Number.isInteger(p) ? String(p) : p.toFixed(Math.abs(p) >= 100 ? 1 : 3);
}

/** The columns of the table's rows the spec's `{data: {column: values}}` takes; rows left all blank are dropped. */
export function tabularData(rows: readonly (readonly string[])[]): { data: Record<string, string[]>; rowCount: number } | { problem: string } {
  const [header = [], ...body] = rows;
  const filled = body.filter((row) => row.some((cell) => cell.trim() !== ""));
  const named = header.map((name, i) => [name.trim(), i] as const).filter(([name]) => name !== "");
  if (named.length === 0) return { problem: "Name at least one column." };
  if (filled.length === 0) return { problem: "Fill in at least one row." };
  if (new Set(named.map(([n]) => n)).size !== named.length) return { problem: "Two columns have the same name." };
  const data: Record<string, string[]> = {};
  for (const [name, i] of named) data[name] = filled.map((row) => (row[i] ?? "").trim());
  return { data, rowCount: filled.length };
}

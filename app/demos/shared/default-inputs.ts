/**
 * The pieces a widget's inputs are read with (labels, tables, the task guide's demo), shared by the
 * widgets and by starting-inputs.ts, which picks a widget's starting inputs. Pure, so tests pin them.
 */
import type { ExampleEntry, TaskExample, WidgetInputs } from "#app/demos/shared/widget-info.ts";

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

export const EMPTY_INPUTS: WidgetInputs = { text: "", context: "", candidateLabels: [], sentences: [], table: [] };

/** "a, b,c" or ["a","b"] as trimmed, non-empty labels. */
export function splitLabels(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : typeof value === "string" ? value.split(",") : [];
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** A table as rows with a header row: from the Hub's column object ({col: [values]}) or rows. */
export function tableRows(value: unknown): string[][] {
  if (Array.isArray(value)) return value.filter(Array.isArray).map((row) => row.map((cell) => String(cell)));
  if (!isRecord(value)) return [];
  const columns = Object.entries(value).filter((e): e is [string, unknown[]] => Array.isArray(e[1]));
  if (columns.length === 0) return [];
  const height = Math.max(...columns.map(([, v]) => v.length));
  const rows: string[][] = [columns.map(([name]) => name)];
  for (let i = 0; i < height; i++) rows.push(columns.map(([, v]) => (v[i] === undefined || v[i] === null ? "" : String(v[i]))));
  return rows;
}

/** Rows (header first) as the column object the table-question-answering spec takes. */
export function tableColumns(rows: readonly string[][]): Record<string, string[]> {
  const [header = [], ...body] = rows;
  const out: Record<string, string[]> = {};
  header.forEach((name, i) => {
    if (name.trim() !== "") out[name] = body.map((row) => row[i] ?? "");
  });
  return out;
}

/** The example's entries of one type, in order. */
export function entriesOf<T extends ExampleEntry["type"]>(entries: readonly ExampleEntry[], type: T): Array<Extract<ExampleEntry, { type: T }>> {
  return entries.filter((e): e is Extract<ExampleEntry, { type: T }> => e.type === type);
}

/**
 * A TASKS_DATA demo, kept to the entry kinds a page can render. Images and audio are named by
 * file, and given the URL `mediaUrl` makes of the name when there is one.
 */
export function toTaskExample(demo: unknown, mediaUrl?: (filename: string) => string): TaskExample | null {
  if (!isRecord(demo)) return null;
  const entries = (list: unknown): ExampleEntry[] =>
    (Array.isArray(list) ? list : []).flatMap((e): ExampleEntry[] => {
      if (!isRecord(e)) return [];
      if (e["type"] === "text" && typeof e["content"] === "string") return [{ type: "text", label: typeof e["label"] === "string" ? e["label"] : "", content: e["content"] }];
      if (e["type"] === "chart" && Array.isArray(e["data"])) {
        const data = e["data"].filter(isRecord).flatMap((d) => (typeof d["label"] === "string" && typeof d["score"] === "number" ? [{ label: d["label"], score: d["score"] }] : []));
        return [{ type: "chart", data }];
      }
      if (e["type"] === "text-with-tokens" && typeof e["text"] === "string" && Array.isArray(e["tokens"])) {
        const tokens = e["tokens"].filter(isRecord).flatMap((t) =>
          typeof t["type"] === "string" && typeof t["start"] === "number" && typeof t["end"] === "number" ? [{ type: t["type"], start: t["start"], end: t["end"] }] : [],
        );
        return [{ type: "text-with-tokens", text: e["text"], tokens }];
      }
      if (e["type"] === "tabular" && Array.isArray(e["table"])) return [{ type: "tabular", table: tableRows(e["table"]) }];
      if ((e["type"] === "img" || e["type"] === "audio") && typeof e["filename"] === "string")
        return [{ type: "media", kind: e["type"] === "img" ? "image" : "audio", filename: e["filename"], ...(mediaUrl ? { url: mediaUrl(e["filename"]) } : {}) }];
      return [];
    });
  const example = { inputs: entries(demo["inputs"]), outputs: entries(demo["outputs"]) };
  return example.inputs.length > 0 || example.outputs.length > 0 ? example : null;
}

/**
 * A widget's starting inputs: the model's own `widgetData` (the Hub's per-model examples) when it
 * has a usable entry for the task, otherwise the task guide's demo inputs from @huggingface/tasks.
 * Pure, so the server builds them and tests pin them.
 */
import type { ExampleEntry, TaskExample, WidgetInputs } from "#app/demos/shared/widget-info.ts";
import type { WidgetTask } from "#app/tasks/task-records.ts";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : null);

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

/** Inputs from one widgetData entry, or null when it lacks what the task needs. */
export function inputsFromWidgetData(task: WidgetTask, entry: unknown): WidgetInputs | null {
  if (!isRecord(entry)) return null;
  const text = str(entry["text"]);
  switch (task) {
    case "question-answering": {
      const context = str(entry["context"]);
      return text && context ? { ...EMPTY_INPUTS, text, context } : null;
    }
    case "zero-shot-classification": {
      const labels = splitLabels(entry["candidate_labels"]);
      return text && labels.length > 0 ? { ...EMPTY_INPUTS, text, candidateLabels: labels } : null;
    }
    case "zero-shot-image-classification": {
      // The entry's image (`src`) is a URL; only the labels are taken, the visitor brings the image.
      const labels = splitLabels(entry["candidate_labels"]);
      return labels.length > 0 ? { ...EMPTY_INPUTS, candidateLabels: labels } : null;
    }
    case "sentence-similarity": {
      const source = str(entry["source_sentence"]);
      const sentences = Array.isArray(entry["sentences"]) ? entry["sentences"].filter((s): s is string => typeof s === "string" && s.trim() !== "") : [];
      return source && sentences.length > 0 ? { ...EMPTY_INPUTS, text: source, sentences } : null;
    }
    case "table-question-answering": {
      const table = tableRows(entry["table"]);
      return text && table.length > 1 ? { ...EMPTY_INPUTS, text, table } : null;
    }
    case "tabular-classification":
    case "tabular-regression": {
      // The Hub's tabular widgets keep their rows as columns under structured_data.
      const table = tableRows(entry["structured_data"]);
      return table.length > 1 ? { ...EMPTY_INPUTS, table } : null;
    }
    default:
      return text ? { ...EMPTY_INPUTS, text } : null;
  }
}

const texts = (entries: readonly ExampleEntry[]) => entriesOf(entries, "text").map((e) => e.content);

/** Inputs from the task guide's demo (the layout each task's demo uses in @huggingface/tasks 0.19.90). */
export function inputsFromExample(task: WidgetTask, example: TaskExample | null, maskToken: string | null): WidgetInputs {
  const entries = example?.inputs ?? [];
  const [first = "", second = "", ...rest] = texts(entries);
  switch (task) {
    case "question-answering":
      return { ...EMPTY_INPUTS, text: first, context: second };
    case "zero-shot-classification":
      return { ...EMPTY_INPUTS, text: first, candidateLabels: splitLabels(second) };
    case "zero-shot-image-classification":
      // The demo's only text entry is its classes ("cat, dog, bird"); the image is the visitor's.
      return { ...EMPTY_INPUTS, candidateLabels: splitLabels(first) };
    case "sentence-similarity":
      return { ...EMPTY_INPUTS, text: first, sentences: [second, ...rest].filter((s) => s !== "") };
    case "table-question-answering":
    case "tabular-classification":
    case "tabular-regression": {
      const table = entries.find((e): e is Extract<ExampleEntry, { type: "tabular" }> => e.type === "tabular");
      return { ...EMPTY_INPUTS, text: first, table: table ? table.table.map((r) => [...r]) : [] };
    }
    case "fill-mask":
      // The guide writes RoBERTa's <mask>; a BERT model needs its own [MASK].
      return { ...EMPTY_INPUTS, text: maskToken ? first.replaceAll("<mask>", maskToken) : first };
    default:
      return { ...EMPTY_INPUTS, text: first };
  }
}

/** The first usable widgetData entry, else the task's demo inputs. */
export function defaultInputs(
  task: WidgetTask,
  widgetData: readonly unknown[] | null,
  example: TaskExample | null,
  maskToken: string | null,
): { inputs: WidgetInputs; source: "widgetData" | "task" } {
  for (const entry of widgetData ?? []) {
    const inputs = inputsFromWidgetData(task, entry);
    if (inputs) return { inputs, source: "widgetData" };
  }
  return { inputs: inputsFromExample(task, example, maskToken), source: "task" };
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

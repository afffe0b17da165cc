/**
 * A widget's starting inputs: the model's own `widgetData` (the Hub's per-model examples) when it
 * has a usable entry for the task, otherwise the task guide's demo inputs from @huggingface/tasks,
 * read by the kind of input the task's record names. Pure, so the server builds them and tests pin
 * them. Apart from default-inputs.ts, which the widgets themselves import, so no widget module
 * reaches the task records (they load the widgets).
 */
import { EMPTY_INPUTS, entriesOf, isRecord, splitLabels, str, tableRows } from "#app/demos/shared/default-inputs.ts";
import type { ExampleEntry, TaskExample, WidgetInputs } from "#app/demos/shared/widget-info.ts";
import { TASKS, type WidgetTask } from "#app/tasks/task-records.ts";

/** Inputs from one widgetData entry, or null when it lacks what the task's kind of input needs. */
export function inputsFromWidgetData(task: WidgetTask, entry: unknown): WidgetInputs | null {
  if (!isRecord(entry)) return null;
  const text = str(entry["text"]);
  switch (TASKS[task].input) {
    case "question-context": {
      const context = str(entry["context"]);
      return text && context ? { ...EMPTY_INPUTS, text, context } : null;
    }
    case "text-labels": {
      const labels = splitLabels(entry["candidate_labels"]);
      return text && labels.length > 0 ? { ...EMPTY_INPUTS, text, candidateLabels: labels } : null;
    }
    case "image-labels": {
      // The entry's image (`src`) is a URL; only the labels are taken, the visitor brings the image.
      const labels = splitLabels(entry["candidate_labels"]);
      return labels.length > 0 ? { ...EMPTY_INPUTS, candidateLabels: labels } : null;
    }
    case "sentences": {
      const source = str(entry["source_sentence"]);
      const sentences = Array.isArray(entry["sentences"]) ? entry["sentences"].filter((s): s is string => typeof s === "string" && s.trim() !== "") : [];
      return source && sentences.length > 0 ? { ...EMPTY_INPUTS, text: source, sentences } : null;
    }
    case "table-question": {
      const table = tableRows(entry["table"]);
      return text && table.length > 1 ? { ...EMPTY_INPUTS, text, table } : null;
    }
    case "table": {
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
  // The guide writes RoBERTa's <mask>; a BERT model needs its own [MASK]. When the model's token is
  // not known, any token in the box would be a guess the provider may reject: the box starts empty.
  if (task === "fill-mask") return { ...EMPTY_INPUTS, text: maskToken ? first.replaceAll("<mask>", maskToken) : "" };
  switch (TASKS[task].input) {
    case "question-context":
      return { ...EMPTY_INPUTS, text: first, context: second };
    case "text-labels":
      return { ...EMPTY_INPUTS, text: first, candidateLabels: splitLabels(second) };
    case "image-labels":
      // The demo's only text entry is its classes ("cat, dog, bird"); the image is the visitor's.
      return { ...EMPTY_INPUTS, candidateLabels: splitLabels(first) };
    case "sentences":
      return { ...EMPTY_INPUTS, text: first, sentences: [second, ...rest].filter((s) => s !== "") };
    case "table-question":
    case "table": {
      const table = entries.find((e): e is Extract<ExampleEntry, { type: "tabular" }> => e.type === "tabular");
      return { ...EMPTY_INPUTS, text: first, table: table ? table.table.map((r) => [...r]) : [] };
    }
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

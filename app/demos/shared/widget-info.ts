/** What a task widget needs to know about a model, built on the server and sent to the browser. */
import type { ChatDemoProvider } from "#app/demos/chat/demo-info.ts";
import type { WidgetTask } from "#app/tasks/task-records.ts";
import type { ParameterField } from "#app/inference/task-parameters.server.ts";

export type { ParameterField };

/** A widget's inputs. Each task reads the fields it needs (see default-inputs.ts). */
export interface WidgetInputs {
  /** The main text: the input, the question (QA, table QA) or the source sentence. */
  text: string;
  /** Question answering: the passage the answer comes from. */
  context: string;
  /** Zero-shot classification: the candidate labels, one string each. */
  candidateLabels: string[];
  /** Sentence similarity: the sentences compared with `text`. */
  sentences: string[];
  /** Table question answering: rows, the first one holding the column names. */
  table: string[][];
}

/** One entry of a task's demo in @huggingface/tasks (TASKS_DATA[task].demo), as the page renders it. */
export type ExampleEntry =
  | { type: "text"; label: string; content: string }
  | { type: "chart"; data: Array<{ label: string; score: number }> }
  | { type: "text-with-tokens"; text: string; tokens: Array<{ type: string; start: number; end: number }> }
  | { type: "tabular"; table: string[][] }
  /**
   * A demo image or clip, which lives on the guide's asset host (not in the package): `url` is
   * where, when the server knows the host; without it the file is only named.
   */
  | { type: "media"; kind: "image" | "audio"; filename: string; url?: string };

export interface TaskExample {
  inputs: ExampleEntry[];
  outputs: ExampleEntry[];
}

export interface TaskWidgetInfo {
  modelId: string;
  task: WidgetTask;
  /** The task's display name ("Text Classification"). */
  taskName: string;
  /** Empty when nothing serves the model: the widget then shows only the example. */
  providers: ChatDemoProvider[];
  inputs: WidgetInputs;
  /** Where `inputs` came from. */
  inputsSource: "widgetData" | "task";
  parameters: ParameterField[];
  /** The task guide's example, or null when the task has none. */
  example: TaskExample | null;
  /** Whether the server holds a key of its own, so visitors can run it without a token. */
  serverKey: boolean;
  /** Fill-mask: the model's mask token, when known. */
  maskToken: string | null;
}

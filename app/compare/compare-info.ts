/** What /compare's loader sends the browser: the setup resolved against the catalogue. */
import type { ChatDemoInfo } from "#app/demos/chat/demo-info.ts";
import type { CompareTask } from "#app/compare/compare-tasks.ts";
import type { SessionColumn } from "#app/compare/session-schema.ts";
import type { ParameterField, WidgetInputs } from "#app/demos/shared/widget-info.ts";

export interface CompareColumnInfo {
  modelId: string;
  route: string;
  /** The provider's or endpoint's name as people read it. */
  label: string;
  /** Why this column cannot run (unknown model, provider not serving the task); null when it can. */
  problem: string | null;
  snippet: SessionColumn["snippet"];
}

export interface CompareInfo {
  task: CompareTask;
  taskLabel: string;
  columns: CompareColumnInfo[];
  /** Problems with the URL itself (dropped columns, unknown task). */
  problems: string[];
  /** Chat parameters' ranges and defaults (the chat demo's, from the chat-completion spec). */
  parameters: ChatDemoInfo["parameters"];
  /**
   * A non-chat task's parameters, from its spec as its widget shows them (less those the shared
   * input sets itself, such as candidate labels): shared by every column, each may override them.
   */
  taskParameters: ParameterField[];
  /** The shared input's starting values: the task widget's defaults (the first column's model's examples, else the task guide's). */
  inputs: WidgetInputs;
  /** The gateway's deadline: the whole comparison runs under one of this length. */
  deadlineMs: number;
  serverKey: boolean;
  modelyardVersion: string;
  /** The model "Compare with…" came from when nothing here runs it: why it has no column, and a search to start from. */
  from: { modelId: string; note: string; query: string } | null;
}

export interface CompareCandidate {
  modelId: string;
  choices: Array<{ route: string; label: string }>;
}

/** What "Add a column" shows for a search: the first matches, and whether a longer search would find more. */
export interface CompareCandidates {
  candidates: CompareCandidate[];
  more: boolean;
}

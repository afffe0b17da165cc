/**
 * The comparison's state and runs in the browser. One input goes to every column at once, each
 * column its own POST /api/inference (so each counts against the visitor's rate limit, and each
 * is aborted on its own when the visitor leaves); they run concurrently under one overall
 * deadline, and one Stop aborts them all. A column that fails keeps its error in place while the
 * others go on.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { CompareColumnInfo, CompareInfo } from "#app/compare/compare-info.ts";
import type { MediaAnswer, SentInput } from "#app/tasks/task-output.ts";
import { buildCompareRequest, COMPARE_TASKS, type CompareInputValues, comparedSentences, inputFileKind, isLabelScoreTask } from "#app/compare/compare-tasks.ts";
import type { SessionMetrics, SessionRunError, SessionTurn, TaskResult } from "#app/compare/session-schema.ts";
import { routeFields } from "#app/demos/chat/demo-info.ts";
import { runInference } from "#app/demos/shared/run-inference.ts";
import { labelScores } from "#app/demos/text/output-shapes.ts";
import { buildParameters, type RawValues } from "#app/demos/shared/parameter-values.ts";

export interface LiveTurn extends Omit<SessionTurn, "status"> {
  id: number;
  status: SessionTurn["status"] | "streaming";
}

export interface ChatParameters {
  temperature: number;
  max_tokens: number;
  top_p: number;
}

export interface ColumnState {
  key: string;
  info: CompareColumnInfo;
  /** Parameters this column sets for itself; the rest come from the shared ones. */
  overrides: Partial<ChatParameters>;
  turns: LiveTurn[];
  result: TaskResult | null;
  /** The shared input `result` answers (QA's context, the sentences scored...). */
  sent: SentInput | null;
  /** The bytes of a media `result` (not saved in a session). */
  media: MediaAnswer | null;
  /** A non-chat column's own parameters as typed, on top of the shared ones ("" = the shared value). */
  taskOverrides?: RawValues;
  /** A streaming task's text so far, while it runs. */
  streamed?: string | null;
  busy: boolean;
}

let nextId = 1;
export const newTurnId = () => nextId++;

export const columnKey = (c: { modelId: string; route: string }) => `${c.modelId}@${c.route}`;

export function initialColumns(info: CompareInfo): ColumnState[] {
  return info.columns.map((c) => ({ key: columnKey(c), info: c, overrides: {}, turns: [], result: null, sent: null, media: null, busy: false }));
}

/**
 * The columns of a new setup (a column added or removed): a column still in it keeps its
 * conversation, result and overrides, with the server's fresh resolution of it; a new one starts
 * empty. Nothing the visitor saw is lost by changing the setup.
 */
export function reconcileColumns(existing: readonly ColumnState[], info: CompareInfo): ColumnState[] {
  const byKey = new Map(existing.map((c) => [c.key, c]));
  return initialColumns(info).map((fresh) => {
    const kept = byKey.get(fresh.key);
    return kept ? { ...kept, info: fresh.info } : fresh;
  });
}

function toMetrics(m: { timeToFirstTokenMs: number | null; tokensPerSecond: number | null; totalMs: number }, usage: { promptTokens: number | null; completionTokens: number | null; totalTokens: number | null; source: "provider" | "counted" } | null): SessionMetrics {
  return {
    timeToFirstTokenMs: m.timeToFirstTokenMs,
    tokensPerSecond: m.tokensPerSecond,
    totalMs: m.totalMs,
    promptTokens: usage?.promptTokens ?? null,
    completionTokens: usage?.completionTokens ?? null,
    totalTokens: usage?.totalTokens ?? null,
    usageSource: usage?.source ?? null,
  };
}

export interface RunInput {
  /** Non-chat tasks: the shared form's values, and the file (image tasks). */
  values: CompareInputValues;
  file: File | null;
  /** Non-chat tasks: the shared parameters as typed ("" = not set); each column's own go on top. */
  parameters: RawValues;
}

/** What a run's answer refers to, as it is drawn and saved. */
export function sentInput(task: CompareInfo["task"], v: CompareInputValues, file: File | null = null): SentInput {
  const kind = COMPARE_TASKS[task].input;
  const fileKind = inputFileKind(kind);
  return {
    text: v.text,
    ...(fileKind === "image" && file ? { image: file } : {}),
    ...(fileKind !== null ? { fileName: file?.name ?? null } : {}),
    ...(kind === "question-context" ? { context: v.context } : {}),
    ...(kind === "sentences" ? { sentences: comparedSentences(v.sentences) } : {}),
    ...(kind === "table" || kind === "table-question" ? { table: v.table.map((r) => [...r]) } : {}),
  };
}

export function useCompare(info: CompareInfo, system: string, shared: ChatParameters) {
  const [columns, setColumns] = useState<ColumnState[]>(() => initialColumns(info));
  // A new setup from the loader (the URL gained or lost a column) updates the columns in place,
  // during render, so no frame shows the old set (React's "adjusting state on a prop change").
  const [seenInfo, setSeenInfo] = useState(info);
  if (seenInfo !== info) {
    setSeenInfo(info);
    setColumns((cs) => reconcileColumns(cs, info));
  }
  const controllers = useRef(new Map<string, AbortController>());
  const deadlineTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const deadlineHit = useRef(false);

  // A visitor who leaves aborts every call still running (the gateway then aborts upstream).
  useEffect(() => {
    const all = controllers.current;
    const abortAll = () => all.forEach((c) => c.abort());
    window.addEventListener("pagehide", abortAll);
    return () => {
      window.removeEventListener("pagehide", abortAll);
      abortAll();
    };
  }, []);

  const patch = useCallback((key: string, f: (c: ColumnState) => ColumnState) => setColumns((cs) => cs.map((c) => (c.key === key ? f(c) : c))), []);

  const stopAll = useCallback(() => controllers.current.forEach((c) => c.abort()), []);

  /** Starts the overall deadline when the first column of a round starts. */
  function armDeadline() {
    if (controllers.current.size > 0) return;
    deadlineHit.current = false;
    if (deadlineTimer.current) clearTimeout(deadlineTimer.current);
    deadlineTimer.current = setTimeout(() => {
      deadlineHit.current = true;
      controllers.current.forEach((c) => c.abort());
    }, info.deadlineMs);
  }

  function finish(key: string) {
    controllers.current.delete(key);
    if (controllers.current.size === 0 && deadlineTimer.current) {
      clearTimeout(deadlineTimer.current);
      deadlineTimer.current = null;
    }
  }

  const deadlineError = (): SessionRunError => ({ code: "deadline", message: `The comparison's deadline (${Math.round(info.deadlineMs / 1000)} s) passed before this column finished.`, hint: null });

  /** One chat reply for a column, for `history` (ending with a user turn). */
  async function runChat(column: ColumnState, history: LiveTurn[]) {
    if (column.info.problem || controllers.current.has(column.key)) return;
    armDeadline();
    const controller = new AbortController();
    controllers.current.set(column.key, controller);
    const reply: LiveTurn = { id: newTurnId(), role: "assistant", content: "", status: "streaming", metrics: null, error: null };
    patch(column.key, (c) => ({ ...c, turns: [...history, reply], busy: true }));
    const setReply = (p: Partial<LiveTurn>) => patch(column.key, (c) => ({ ...c, turns: c.turns.map((t) => (t.id === reply.id ? { ...t, ...p } : t)) }));
    const parameters = { ...shared, ...column.overrides };
    const messages = [...(system.trim() ? [{ role: "system", content: system.trim() }] : []), ...history.map((t) => ({ role: t.role, content: t.content }))];
    let metrics: SessionMetrics | null = null;
    const outcome = await runInference({
      body: { model: column.info.modelId, task: "conversational", ...routeFields(column.info.route), messages, parameters, stream: true },
      signal: controller.signal,
      onText: (text) => setReply({ content: text }),
      onFinal: (event) => {
        metrics = toMetrics(event.timing, event.usage);
      },
    });
    finish(column.key);
    if (outcome.kind === "text") setReply({ content: outcome.text, status: "done", metrics });
    else if (outcome.kind === "aborted") setReply(deadlineHit.current ? { status: "error", error: deadlineError() } : { status: "stopped" });
    else if (outcome.kind === "error") setReply({ status: "error", error: { code: outcome.error.code, message: outcome.error.message, hint: outcome.error.hint } });
    else if (outcome.kind === "offline") setReply({ status: "error", error: { code: "network", message: outcome.message, hint: "The connection to Modelyard failed. Check your network and try again." } });
    else setReply({ status: "error", error: { code: "unexpected_answer", message: "The gateway answered a chat with something other than a stream.", hint: null } });
    patch(column.key, (c) => ({ ...c, busy: false }));
  }

  /** One run of a non-chat task for a column. */
  async function runTask(column: ColumnState, input: RunInput) {
    const task = info.task;
    if (task === "text-generation" || column.info.problem || controllers.current.has(column.key)) return;
    const built = buildCompareRequest(task, input.values, input.file);
    if (!built.ok) {
      patch(column.key, (c) => ({ ...c, result: { kind: "error", error: { code: "invalid_input", message: built.message, hint: null } } }));
      return;
    }
    const own = Object.fromEntries(Object.entries(column.taskOverrides ?? {}).filter(([, v]) => v.trim() !== ""));
    const typed = buildParameters(info.taskParameters, { ...input.parameters, ...own });
    if (!typed.ok) {
      patch(column.key, (c) => ({ ...c, result: { kind: "error", error: { code: "invalid_parameter", message: typed.message, hint: null } } }));
      return;
    }
    const parameters = { ...typed.parameters, ...built.parameters };
    armDeadline();
    const controller = new AbortController();
    controllers.current.set(column.key, controller);
    patch(column.key, (c) => ({ ...c, result: null, media: null, streamed: null, sent: sentInput(task, input.values, input.file), busy: true }));
    // Text generation streams, as its widget does: the column shows the text as it comes.
    const streaming = task === "text-completion";
    const started = performance.now();
    let firstTokenMs: number | null = null;
    const outcome = await runInference({
      body: {
        model: column.info.modelId,
        task: COMPARE_TASKS[task].mappingTask,
        ...routeFields(column.info.route),
        ...(built.inputs !== undefined ? { inputs: built.inputs } : {}),
        ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
        ...(streaming ? { stream: true } : {}),
      },
      ...(built.file ? { file: built.file } : {}),
      signal: controller.signal,
      ...(streaming
        ? {
            onText: (text: string) => {
              firstTokenMs ??= performance.now() - started;
              patch(column.key, (c) => ({ ...c, streamed: text }));
            },
          }
        : {}),
    });
    finish(column.key);
    let result: TaskResult;
    let media: MediaAnswer | null = null;
    if (outcome.kind === "media") {
      media = { blob: outcome.blob, contentType: outcome.contentType };
      result = { kind: "media", contentType: outcome.contentType, bytes: outcome.blob.size, metrics: toMetrics({ timeToFirstTokenMs: null, tokensPerSecond: null, totalMs: outcome.metrics.elapsedMs }, null) };
    } else if (outcome.kind === "json") {
      const items = labelScores(outcome.output);
      const metrics = toMetrics({ timeToFirstTokenMs: null, tokensPerSecond: null, totalMs: outcome.metrics.elapsedMs }, null);
      result = !isLabelScoreTask(task)
        ? { kind: "output", output: outcome.output, metrics }
        : items
        ? { kind: "label-scores", items: items.map((i) => ({ label: i.label, score: Math.max(0, Math.min(1, i.score)) })), metrics }
        : { kind: "error", error: { code: "unexpected_answer", message: `The answer is not the label-and-score list ${COMPARE_TASKS[task].label.toLowerCase()} returns.`, hint: null } };
    } else if (outcome.kind === "error") result = { kind: "error", error: { code: outcome.error.code, message: outcome.error.message, hint: outcome.error.hint } };
    else if (outcome.kind === "aborted") result = { kind: "error", error: deadlineHit.current ? deadlineError() : { code: "stopped", message: "Stopped.", hint: null } };
    else if (outcome.kind === "offline") result = { kind: "error", error: { code: "network", message: outcome.message, hint: "The connection to Modelyard failed." } };
    else if (outcome.kind === "text" && streaming) {
      result = { kind: "output", output: { generated_text: outcome.text }, metrics: toMetrics({ timeToFirstTokenMs: firstTokenMs, tokensPerSecond: null, totalMs: outcome.metrics.elapsedMs }, null) };
    }
    else result = { kind: "error", error: { code: "unexpected_answer", message: "The gateway answered with text, which this task does not return.", hint: null } };
    patch(column.key, (c) => ({ ...c, result, media, streamed: null, busy: false }));
  }

  /** Sends a new user message to every column. */
  function sendAll(text: string) {
    for (const c of columns) {
      const settled = c.turns.filter((t) => t.status !== "streaming");
      void runChat(c, [...settled, { id: newTurnId(), role: "user", content: text, status: "done", metrics: null, error: null }]);
    }
  }

  /** Sends to one column only (its own edit and resend). */
  function sendOne(key: string, history: LiveTurn[], text: string) {
    const c = columns.find((x) => x.key === key);
    if (c) void runChat(c, [...history, { id: newTurnId(), role: "user", content: text, status: "done", metrics: null, error: null }]);
  }

  function regenerate(key: string) {
    const c = columns.find((x) => x.key === key);
    if (!c || c.busy) return;
    const lastUser = c.turns.map((t) => t.role).lastIndexOf("user");
    if (lastUser >= 0) void runChat(c, c.turns.slice(0, lastUser + 1));
  }

  function regenerateAll() {
    for (const c of columns) regenerate(c.key);
  }

  function runAll(input: RunInput) {
    for (const c of columns) void runTask(c, input);
  }

  function rerun(key: string, input: RunInput) {
    const c = columns.find((x) => x.key === key);
    if (c && !c.busy) void runTask(c, input);
  }

  const busy = columns.some((c) => c.busy);
  return { columns, setColumns, patch, busy, stopAll, sendAll, sendOne, regenerate, regenerateAll, runAll, rerun };
}

/**
 * /compare: up to six columns (model + provider or endpoint) on one task, one input sent to all
 * at once, per-column metrics and a summary row, and sessions saved to and opened from files.
 */
import { type FormEvent, lazy, Suspense, useId, useState } from "react";
import { useNavigate } from "react-router";
import { AddColumn } from "#app/compare/add-column.tsx";
import { ChatColumnBody, ColumnHeader, OverridesForm, TaskColumnBody } from "#app/compare/column-view.tsx";
import { buttonCls, fieldCls } from "#app/compare/compare-styles.ts";
import type { CompareInfo } from "#app/compare/compare-info.ts";
import { preloadOutput, usePreloadedOutput } from "#app/compare/compare-outputs.tsx";
import { compareHref, MAX_COLUMNS } from "#app/compare/compare-setup.ts";
import { buildCompareRequest, COMPARE_TASKS, type CompareInputValues, type CompareTask, inputFileKind } from "#app/compare/compare-tasks.ts";
import { buildSession } from "#app/compare/session-build.ts";
import { downloadSession } from "#app/compare/session-file.ts";
import { SessionOpener } from "#app/compare/session-opener.tsx";
import type { Session } from "#app/compare/session-schema.ts";
import { SummaryRow } from "#app/compare/summary-row.tsx";
import { type ChatParameters, type ColumnState, type RunInput, sentInput, useCompare } from "#app/compare/use-compare.ts";
import { readVisitorToken } from "#app/utils/visitor-token.ts";
import { splitLabels } from "#app/demos/shared/default-inputs.ts";
import { TableInput } from "#app/demos/shared/table-input.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { ParametersForm } from "#app/demos/shared/parameters-form.tsx";
import { initialValues } from "#app/demos/shared/parameter-values.ts";

/**
 * Adding or removing a column is a client navigation: the loader resolves the new setup and the
 * page stays mounted, so the other columns keep what they hold (see reconcileColumns).
 */
const KEEP = { preventScrollReset: true } as const;

const FILE_LABEL = { image: "Image", document: "Document (image or PDF)", audio: "Audio" } as const;
const FILE_ACCEPT = { image: "image/*", document: "image/*,application/pdf", audio: "audio/*" } as const;

function latestMetrics(c: ColumnState) {
  if (c.result) return c.result.kind === "error" ? null : c.result.metrics;
  const last = c.turns.at(-1);
  return last?.role === "assistant" && last.status === "done" ? last.metrics : null;
}

/** The fields the visitor filled in ("" is "not set"). */
const typedOnly = (values: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ""));

// Only an opened session needs its view, so it loads then (as on the playground), not with the page.
const SessionView = lazy(() => import("#app/compare/session-view.tsx").then((m) => ({ default: m.SessionView })));

export function ComparePage({ info }: { info: CompareInfo }) {
  const id = useId();
  const navigate = useNavigate();
  usePreloadedOutput(info.task);
  const chat = COMPARE_TASKS[info.task].input === "chat";
  const [system, setSystem] = useState("");
  const [shared, setShared] = useState<ChatParameters>({ temperature: info.parameters.temperature.default, max_tokens: info.parameters.max_tokens.default, top_p: info.parameters.top_p.default });
  const [message, setMessage] = useState("");
  const [values, setValues] = useState<CompareInputValues>(() => ({
    text: info.inputs.text,
    context: info.inputs.context,
    candidateLabels: info.inputs.candidateLabels.join(", "),
    sentences: info.inputs.sentences.join("\n"),
    // As the tabular and table-QA widgets start: the model's table, else one empty column.
    table: info.inputs.table.length > 1 ? info.inputs.table : [["Column 1"], [""]],
  }));
  const setValue = (name: Exclude<keyof CompareInputValues, "table">) => (v: string) => setValues((old) => ({ ...old, [name]: v }));
  const [file, setFile] = useState<File | null>(null);
  const [opened, setOpened] = useState<Session | null>(null);
  const cmp = useCompare(info, system, shared);
  const setup = { task: info.task, columns: info.columns.map((c) => ({ modelId: c.modelId, route: c.route })) };
  const runnable = cmp.columns.some((c) => c.info.problem === null);
  const [taskShared, setTaskShared] = useState<Record<string, string>>(() => initialValues(info.taskParameters));
  const input: RunInput = { values, file, parameters: taskShared };
  const inputKind = COMPARE_TASKS[info.task].input;
  const fileKind = inputFileKind(inputKind);
  const ready = info.task !== "text-generation" && buildCompareRequest(info.task, values, file).ok;

  function send(e?: FormEvent) {
    e?.preventDefault();
    const t = message.trim();
    if (!t || cmp.busy) return;
    setMessage("");
    cmp.sendAll(t);
  }

  /** Edit and resend for all: the last message goes back in the box, and every column drops it. */
  function editLast() {
    const first = cmp.columns.find((c) => c.turns.some((t) => t.role === "user"));
    if (!first || cmp.busy) return;
    const lastUser = first.turns.map((t) => t.role).lastIndexOf("user");
    setMessage(first.turns[lastUser]?.content ?? "");
    cmp.setColumns((cs) =>
      cs.map((c) => {
        const i = c.turns.map((t) => t.role).lastIndexOf("user");
        return i < 0 ? c : { ...c, turns: c.turns.slice(0, i) };
      }),
    );
  }

  /** The input the saved outputs answer: the last one sent (or the form's, when nothing ran). */
  function savedInput() {
    if (chat) return { text: "", fileName: null };
    const sent = cmp.columns.find((c) => c.sent !== null)?.sent ?? sentInput(info.task, values);
    return {
      text: sent.text,
      fileName: fileKind !== null ? (sent.fileName ?? file?.name ?? null) : null,
      ...(sent.context !== undefined ? { context: sent.context } : {}),
      ...(sent.sentences !== undefined ? { sentences: [...sent.sentences] } : {}),
      ...(sent.table !== undefined ? { table: sent.table.map((r) => [...r]) } : {}),
      ...(inputKind === "text-labels" || inputKind === "image-labels" ? { candidateLabels: splitLabels(values.candidateLabels) } : {}),
    };
  }

  /**
   * A chat column's snippet with the parameters it ran with (shared plus its overrides); the
   * loader's snippet, with the shared defaults, when that cannot be had.
   */
  async function columnSnippet(c: ColumnState): Promise<ColumnState["info"]["snippet"]> {
    if (!chat || c.info.snippet === null) return c.info.snippet;
    const p = { ...shared, ...c.overrides };
    const q = new URLSearchParams({ task: info.task, model: `${c.info.modelId}@${c.info.route}`, temperature: String(p.temperature), max_tokens: String(p.max_tokens), top_p: String(p.top_p) });
    try {
      const res = await fetch(`/api/compare/snippet?${q.toString()}`);
      if (!res.ok) return c.info.snippet;
      return ((await res.json()) as { snippet: ColumnState["info"]["snippet"] }).snippet ?? c.info.snippet;
    } catch {
      return c.info.snippet;
    }
  }

  async function save() {
    const snippets = await Promise.all(cmp.columns.map(columnSnippet));
    const session = buildSession({
      source: "compare",
      task: info.task,
      modelyardVersion: info.modelyardVersion,
      system,
      // A task's parameters as the visitor typed them (a list stays its comma-separated text).
      parameters: chat ? { ...shared } : typedOnly(taskShared),
      input: savedInput(),
      columns: cmp.columns.map((c, i) => ({ info: { ...c.info, snippet: snippets[i] ?? c.info.snippet }, overrides: chat ? c.overrides : typedOnly(c.taskOverrides ?? {}), turns: c.turns, result: c.result })),
    });
    downloadSession(session, [readVisitorToken()]);
  }

  const hasContent = cmp.columns.some((c) => c.turns.length > 0 || c.result !== null);
  const nameOf = (key: string) => {
    const c = cmp.columns.find((x) => x.key === key);
    return c ? `${c.info.modelId} on ${c.info.label}` : key;
  };

  return (
    <div className="mx-auto max-w-7xl space-y-4 px-4 py-6" data-compare={info.task}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Compare models and providers</h1>
          <p className="text-sm text-gray-600 dark:text-gray-400">
            {info.taskLabel}: the same input goes to every column at once. The URL holds this setup, so it can be shared.
          </p>
        </div>
        <form method="get" action="/compare" className="flex items-end gap-2 text-sm">
          <div>
            <label htmlFor={`${id}-task`} className="block text-xs font-medium text-gray-700 dark:text-gray-300">
              Task
            </label>
            <select id={`${id}-task`} name="task" defaultValue={info.task} className={fieldCls}>
              {(Object.keys(COMPARE_TASKS) as CompareTask[]).map((t) => (
                <option key={t} value={t}>
                  {COMPARE_TASKS[t].label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={buttonCls}>
            Change task
          </button>
        </form>
      </div>

      {info.problems.length > 0 ? (
        <ul role="status" className="list-inside list-disc rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100">
          {info.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}

      <div className="flex flex-wrap items-center gap-2 text-sm" data-session-bar="">
        <button type="button" onClick={() => void save()} disabled={!hasContent || cmp.busy} className={buttonCls}>
          Save session
        </button>
        {/* The session's answers are drawn at once: their task's view is loaded before the session is shown. */}
        <SessionOpener onOpen={(session) => void preloadOutput(session.task).then(() => setOpened(session))} />
        <a href="/schemas/session-v1.json" className="text-xs underline">
          Session file format (JSON Schema)
        </a>
      </div>

      {opened ? (
        <Suspense fallback={<p className="text-xs text-gray-700 dark:text-gray-300">Opening the session…</p>}>
          <SessionView session={opened} onClose={() => setOpened(null)} />
        </Suspense>
      ) : (
        <>
          {chat ? (
            <details className="rounded-md border border-gray-200 text-sm dark:border-gray-800" data-shared-parameters="">
              <summary className="cursor-pointer select-none px-3 py-2 font-medium">Shared parameters and system prompt</summary>
              <div className="grid gap-3 px-3 pb-3 sm:grid-cols-3">
                {(["temperature", "max_tokens", "top_p"] as const).map((name) => (
                  <div key={name}>
                    <label htmlFor={`${id}-${name}`} className="block text-xs font-medium text-gray-700 dark:text-gray-300" title={info.parameters[name].description}>
                      {name === "max_tokens" ? "Max tokens" : name === "top_p" ? "Top-p" : "Temperature"}
                    </label>
                    <input
                      id={`${id}-${name}`}
                      name={name}
                      type="number"
                      min={info.parameters[name].min}
                      max={info.parameters[name].max}
                      step={info.parameters[name].step}
                      value={shared[name]}
                      onChange={(e) => {
                        const v = Number(e.target.value);
                        if (!Number.isNaN(v)) setShared({ ...shared, [name]: Math.min(info.parameters[name].max, Math.max(info.parameters[name].min, v)) });
                      }}
                      className={fieldCls}
                    />
                  </div>
                ))}
                <div className="sm:col-span-3">
                  <label htmlFor={`${id}-system`} className="block text-xs font-medium text-gray-700 dark:text-gray-300">
                    System prompt
                  </label>
                  <textarea id={`${id}-system`} name="system" rows={2} value={system} onChange={(e) => setSystem(e.target.value)} className={fieldCls} />
                </div>
              </div>
            </details>
          ) : null}

          {cmp.columns.length === 0 ? (
            info.from ? (
              <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100" data-compare-from={info.from.modelId}>
                {info.from.note}
              </p>
            ) : (
              <p className="rounded-md border border-gray-200 p-3 text-sm dark:border-gray-800">No columns yet: add one below, or open a model page and choose “Compare with…”.</p>
            )
          ) : (
            <div className={`grid gap-3 ${cmp.columns.length > 1 ? "md:grid-cols-2" : ""} ${cmp.columns.length > 2 ? "xl:grid-cols-3" : ""}`} data-compare-columns="">
              {cmp.columns.map((c, i) => (
                <section key={c.key} aria-label={`${c.info.modelId} on ${c.info.label}`} className="space-y-2 rounded-lg border border-gray-200 p-3 dark:border-gray-800" data-column={c.key} data-busy={c.busy ? "true" : "false"}>
                  <ColumnHeader
                    info={c.info}
                    index={i}
                    {...(cmp.busy ? {} : { onRemove: () => void navigate(compareHref({ ...setup, columns: setup.columns.filter((_, j) => j !== i) }), KEEP) })}
                  />
                  {c.info.problem ? (
                    <p role="alert" data-column-problem="" className="text-xs text-red-800 dark:text-red-200">
                      {c.info.problem}
                    </p>
                  ) : chat ? (
                    <>
                      <OverridesForm overrides={c.overrides} shared={shared} disabled={c.busy} onChange={(o) => cmp.patch(c.key, (x) => ({ ...x, overrides: o }))} />
                      <ChatColumnBody turns={c.turns} busy={c.busy} readOnly={false} onRegenerate={() => cmp.regenerate(c.key)} onResend={(h, t) => cmp.sendOne(c.key, h, t)} />
                    </>
                  ) : (
                    <>
                      <ParametersForm
                        fields={info.taskParameters}
                        values={c.taskOverrides ?? {}}
                        label="This column's parameters (empty: the shared value)"
                        disabled={c.busy}
                        onChange={(n, v) => cmp.patch(c.key, (x) => ({ ...x, taskOverrides: { ...x.taskOverrides, [n]: v } }))}
                      />
                      <TaskColumnBody task={info.task} result={c.result} sent={c.sent} media={c.media} busy={c.busy} modelId={c.info.modelId} streamed={c.streamed ?? null} />
                      <button type="button" className={buttonCls} disabled={c.busy || !ready} onClick={() => cmp.rerun(c.key, input)}>
                        {c.sent ? "Run this column again" : "Run this column only"}
                      </button>
                    </>
                  )}
                </section>
              ))}
            </div>
          )}

          {runnable ? (
            chat ? (
              <form onSubmit={send} className="space-y-2 text-sm" aria-label="Message for every column">
                <label htmlFor={`${id}-message`} className="block text-xs font-medium text-gray-700 dark:text-gray-300">
                  Message (sent to every column)
                </label>
                <textarea
                  id={`${id}-message`}
                  name="message"
                  rows={3}
                  value={message}
                  onChange={(e) => setMessage(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) send(e);
                  }}
                  placeholder="Message (Enter to send to all, Shift+Enter for a new line)"
                  className={fieldCls}
                />
                <div className="flex flex-wrap gap-2">
                  {cmp.busy ? (
                    <button type="button" onClick={cmp.stopAll} className="rounded-md bg-gray-800 px-3 py-1.5 font-medium text-white hover:bg-gray-700 dark:bg-gray-200 dark:text-gray-900">
                      Stop all
                    </button>
                  ) : (
                    <button type="submit" disabled={message.trim() === ""} className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
                      Send to all
                    </button>
                  )}
                  <button type="button" onClick={cmp.regenerateAll} disabled={cmp.busy || !hasContent} className={buttonCls}>
                    Regenerate all
                  </button>
                  <button type="button" onClick={editLast} disabled={cmp.busy || !hasContent} className={buttonCls}>
                    Edit last message and resend to all
                  </button>
                </div>
              </form>
            ) : (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!cmp.busy) cmp.runAll(input);
                }}
                className="space-y-2 text-sm"
                aria-label="Input for every column"
              >
                {fileKind !== null ? (
                  <>
                    <label htmlFor={`${id}-file`} className="block text-xs font-medium text-gray-700 dark:text-gray-300">
                      {FILE_LABEL[fileKind]} (sent to every column)
                    </label>
                    <input id={`${id}-file`} name="inputs" type="file" accept={FILE_ACCEPT[fileKind]} onChange={(e) => setFile(e.target.files?.[0] ?? null)} className="text-sm" />
                    {inputKind === "image-labels" ? (
                      <TextInput label="Candidate labels" name="candidate_labels" value={values.candidateLabels} onChange={setValue("candidateLabels")} rows={1} hint="Comma-separated, e.g. cat, dog, bird" />
                    ) : null}
                    {inputKind === "image-question" || inputKind === "document-question" ? <TextInput label="Question" name="question" value={values.text} onChange={setValue("text")} rows={1} /> : null}
                    {inputKind === "image-prompt" ? <TextInput label="Prompt (optional)" name="prompt" value={values.text} onChange={setValue("text")} rows={2} /> : null}
                  </>
                ) : inputKind === "table" || inputKind === "table-question" ? (
                  <>
                    {inputKind === "table-question" ? <TextInput label="Question (sent to every column)" name="query" value={values.text} onChange={setValue("text")} rows={1} /> : null}
                    <TableInput rows={values.table} onChange={(table) => setValues((old) => ({ ...old, table }))} legend={inputKind === "table" ? "Rows to predict, sent to every column (first row: column names)" : "Table, sent to every column (first row: column names)"} />
                  </>
                ) : (
                  <>
                    <TextInput
                      label={`${inputKind === "question-context" ? "Question" : inputKind === "sentences" ? "Source sentence" : "Text"} (sent to every column)`}
                      name={inputKind === "question-context" ? "question" : inputKind === "sentences" ? "source_sentence" : "inputs"}
                      value={values.text}
                      onChange={setValue("text")}
                      rows={inputKind === "question-context" || inputKind === "sentences" ? 1 : 3}
                    />
                    {inputKind === "question-context" ? <TextInput label="Context" name="context" value={values.context} onChange={setValue("context")} rows={4} /> : null}
                    {inputKind === "text-labels" ? (
                      <TextInput label="Candidate labels" name="candidate_labels" value={values.candidateLabels} onChange={setValue("candidateLabels")} rows={1} hint="Comma-separated, e.g. cinema, art, music" />
                    ) : null}
                    {inputKind === "sentences" ? <TextInput label="Sentences to compare" name="sentences" value={values.sentences} onChange={setValue("sentences")} rows={4} hint="One sentence per line" /> : null}
                  </>
                )}
                <ParametersForm
                  fields={info.taskParameters}
                  values={taskShared}
                  label="Shared parameters (every column; a column may set its own)"
                  disabled={cmp.busy}
                  onChange={(n, v) => setTaskShared((old) => ({ ...old, [n]: v }))}
                />
                <div className="flex gap-2">
                  {cmp.busy ? (
                    <button type="button" onClick={cmp.stopAll} className="rounded-md bg-gray-800 px-3 py-1.5 font-medium text-white dark:bg-gray-200 dark:text-gray-900">
                      Stop all
                    </button>
                  ) : (
                    <button type="submit" disabled={!ready} className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
                      Run all
                    </button>
                  )}
                </div>
              </form>
            )
          ) : null}

          {cmp.columns.length > 0 ? <SummaryRow figures={cmp.columns.map((c) => ({ key: c.key, metrics: latestMetrics(c) }))} label={nameOf} /> : null}

          {cmp.columns.length < MAX_COLUMNS ? (
            <AddColumn task={info.task} disabled={cmp.busy} initialQuery={info.from?.query ?? ""} onAdd={(modelId, route) => void navigate(compareHref({ ...setup, columns: [...setup.columns, { modelId, route }] }), KEEP)} />
          ) : (
            <p className="text-xs text-gray-600 dark:text-gray-400">{MAX_COLUMNS} columns is the most a comparison holds.</p>
          )}
        </>
      )}
    </div>
  );
}

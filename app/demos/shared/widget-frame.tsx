/**
 * What every task widget shares: the provider picker, the spec's parameters, the Run button, the
 * error shown in place, the result with its time and size, and the task guide's example when the
 * model cannot be run here (no provider, no token, offline). A widget supplies its inputs, how
 * they become the request, and how the answer is drawn.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { KeyNote } from "#app/auth/key-note.tsx";
import { type ServerKeyState, useServerKeyState } from "#app/auth/viewer.ts";
import { routeFields } from "#app/demos/chat/demo-info.ts";
import { readVisitorToken } from "#app/utils/visitor-token.ts";
import { ExampleOutput } from "#app/demos/shared/example-output.tsx";
import { buildParameters, initialValues } from "#app/demos/shared/parameter-values.ts";
import { fieldCls, ParametersForm } from "#app/demos/shared/parameters-form.tsx";
import { ResultFooter } from "#app/demos/shared/result-footer.tsx";
import { type RunError, type RunOutcome, runInference } from "#app/demos/shared/run-inference.ts";
import type { TaskExample, TaskWidgetInfo } from "#app/demos/shared/widget-info.ts";
import { DemoErrorAlert } from "#app/demos/shared/demo-error.tsx";

/** The request a widget would send, for the snippets panel to follow. */
export interface WidgetRequest {
  task: string;
  provider: string;
  inputs: unknown;
  parameters: Record<string, unknown>;
  /** The name of the file sent as the multipart `inputs` field, when the task takes one. */
  fileName?: string;
}

export interface WidgetProps {
  info: TaskWidgetInfo;
  compact?: boolean;
  onRequestChange?: (request: WidgetRequest) => void;
}

/** A live answer, as the widget's renderer gets it. */
export type LiveResult = Extract<RunOutcome, { kind: "json" | "text" | "media" }>;

/** A file input (an image, a recording, a page) goes as `file`; `inputs` then holds only what travels beside it. */
export type BuiltInputs = { ok: true; inputs: unknown; parameters?: Record<string, unknown>; file?: Blob } | { ok: false; message: string };

const fileName = (file: Blob): string => (file instanceof File && file.name !== "" ? file.name : "input");

interface FrameProps extends WidgetProps {
  /** The widget's inputs as the request's `inputs` (and any parameters its own fields set). */
  build: () => BuiltInputs;
  /** Parameters the widget has its own field for (zero-shot's candidate_labels). */
  ownParameters?: readonly string[];
  /** Whether to ask for a stream, by provider (the gateway streams text generation). */
  stream?: (provider: string) => boolean;
  render: (result: LiveResult) => ReactNode;
  /**
   * The task guide's example output drawn by the widget's own output component, or null where the
   * example does not hold what that component needs (the entries are then drawn by their type).
   */
  renderExample?: (example: TaskExample) => ReactNode;
  /** While a stream is coming in, the text so far. */
  renderPartial?: (text: string) => ReactNode;
  /** Called as a run starts, so the widget can keep the inputs the answer refers to. */
  onRun?: () => void;
  children: ReactNode;
}

type Unavailable = { why: "no-provider" | "no-token" | "sign-in" | "offline"; reason: string } | null;

function unavailable(info: TaskWidgetInfo, hasToken: boolean | null, online: boolean, keyState: ServerKeyState): Unavailable {
  if (info.providers.length === 0) return { why: "no-provider", reason: "No inference provider or configured endpoint serves this model here, so it cannot be run." };
  if (!online) return { why: "offline", reason: "This machine is offline, so the model cannot be reached." };
  if (hasToken === false && keyState === "sign-in") {
    return { why: "sign-in", reason: "This site runs demos on its own keys for signed-in members only. Sign in, or add your own token in Settings to run it on your account." };
  }
  if (hasToken === false && keyState === "none") return { why: "no-token", reason: "Running this model needs a Hugging Face token (or the provider's key); this site has none of its own." };
  return null;
}

export function WidgetFrame({ info, compact = false, onRequestChange, build, ownParameters = [], stream: streamFor, render, renderExample, renderPartial, onRun, children }: FrameProps) {
  const id = useId();
  const fields = info.parameters.filter((f) => !ownParameters.includes(f.name));
  const [provider, setProvider] = useState(info.providers[0]?.value ?? "");
  const [values, setValues] = useState(() => initialValues(fields));
  const [busy, setBusy] = useState(false);
  const [partial, setPartial] = useState<string | null>(null);
  const [result, setResult] = useState<LiveResult | null>(null);
  const [error, setError] = useState<RunError | null>(null);
  const [hasToken, setHasToken] = useState<boolean | null>(null);
  const [online, setOnline] = useState(true);
  const [lostConnection, setLostConnection] = useState(false);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    setHasToken(readVisitorToken() !== null);
    const update = () => setOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
      abortRef.current?.abort();
    };
  }, []);

  const params = buildParameters(fields, values);
  const built = build();
  // The request as one string, so listeners hear of a change only when the request changes.
  const request: string | null =
    built.ok && params.ok
      ? JSON.stringify({
          task: info.task,
          provider,
          inputs: built.inputs,
          parameters: { ...params.parameters, ...built.parameters },
          ...(built.file ? { fileName: fileName(built.file) } : {}),
        } satisfies WidgetRequest)
      : null;
  useEffect(() => {
    if (onRequestChange && request !== null) onRequestChange(JSON.parse(request) as WidgetRequest);
  }, [request, onRequestChange]);

  const keyState = useServerKeyState(info.serverKey);
  const blocked = unavailable(info, hasToken, online, keyState) ?? (lostConnection ? { why: "offline" as const, reason: "Modelyard could not be reached from this browser, so the model was not run." } : null);

  async function run(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!built.ok) return setError({ code: "invalid_input", message: built.message, hint: null, field: "inputs", status: 400 });
    if (!params.ok) return setError({ code: "invalid_input", message: params.message, hint: null, field: `parameters.${params.field}`, status: 400 });
    const stream = streamFor?.(provider) ?? false;
    setError(null);
    setResult(null);
    onRun?.();
    setPartial(stream ? "" : null);
    setBusy(true);
    const controller = new AbortController();
    abortRef.current = controller;
    const parameters = { ...params.parameters, ...built.parameters };
    const outcome = await runInference({
      body: { model: info.modelId, task: info.task, ...routeFields(provider), inputs: built.inputs, ...(Object.keys(parameters).length > 0 ? { parameters } : {}), ...(stream ? { stream: true } : {}) },
      ...(built.file ? { file: built.file } : {}),
      signal: controller.signal,
      onText: (t) => setPartial(t),
    });
    abortRef.current = null;
    setBusy(false);
    setPartial(null);
    if (outcome.kind === "error") setError(outcome.error);
    else if (outcome.kind === "offline") setLostConnection(true);
    else if (outcome.kind !== "aborted") {
      setLostConnection(false);
      setResult(outcome);
    }
  }

  const canRun = blocked === null || blocked.why === "offline";
  return (
    <div className="space-y-3 text-sm" data-task-widget={info.task} data-widget-model={info.modelId}>
      <form onSubmit={(e) => void run(e)} className="space-y-3" aria-label={`${info.taskName} input`}>
        {info.providers.length > 1 ? (
          <div>
            <label htmlFor={`${id}-provider`} className="mb-1 block text-xs font-medium text-gray-700 dark:text-gray-300">
              Provider
            </label>
            <select id={`${id}-provider`} name="provider" value={provider} onChange={(e) => setProvider(e.target.value)} disabled={busy} className={fieldCls}>
              {info.providers.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.kind === "endpoint" ? `${p.label} (configured endpoint)` : p.label}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {children}
        {compact ? null : <ParametersForm fields={fields} values={values} onChange={(n, v) => setValues((old) => ({ ...old, [n]: v }))} disabled={busy} />}
        <div className="flex flex-wrap items-center gap-2">
          {busy ? (
            <button type="button" onClick={() => abortRef.current?.abort()} className="rounded-md bg-gray-800 px-3 py-1.5 font-medium text-white hover:bg-gray-700 dark:bg-gray-200 dark:text-gray-900">
              Stop
            </button>
          ) : (
            <button type="submit" disabled={!canRun} className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
              Run
            </button>
          )}
          {info.providers.length === 1 ? <span className="text-xs text-gray-600 dark:text-gray-400">on {info.providers[0]?.label}</span> : null}
          {info.providers.length > 0 ? (
            <span className="ml-auto text-xs text-gray-600 dark:text-gray-400">
              <KeyNote hasToken={hasToken} keyState={keyState} />
            </span>
          ) : null}
        </div>
      </form>

      <div aria-live="polite" className="space-y-3">
        {busy && partial === null ? <p className="animate-pulse text-gray-600 dark:text-gray-400">Running…</p> : null}
        {partial !== null && renderPartial ? <div data-widget-partial="">{renderPartial(partial)}</div> : null}
        {error ? <DemoErrorAlert error={error} kind="widget" /> : null}
        {result && !busy ? (
          <section aria-label="Result" data-widget-result="" className="rounded-md border border-gray-200 bg-white p-3 dark:border-gray-800 dark:bg-gray-950">
            {render(result)}
            <ResultFooter metrics={result.metrics} provider={result.provider} />
          </section>
        ) : null}
        {blocked && !result ? (
          info.example ? (
            <ExampleOutput example={info.example} reason={blocked.reason} output={renderExample?.(info.example) ?? undefined} compact={compact} />
          ) : (
            <p data-widget-unavailable="" className="rounded-md border border-dashed border-gray-300 p-3 text-gray-700 dark:border-gray-700 dark:text-gray-300">
              {blocked.reason}
            </p>
          )
        ) : null}
      </div>
    </div>
  );
}

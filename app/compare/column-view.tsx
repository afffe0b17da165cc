/** One column of a comparison: its header, its conversation or result, its metrics and error in place. */
import { type FormEvent, useId, useState } from "react";
import type { CompareColumnInfo } from "#app/compare/compare-info.ts";
import { CompareOutput } from "#app/compare/compare-outputs.tsx";
import type { MediaAnswer, SentInput } from "#app/tasks/task-output.ts";
import type { SessionMetrics, SessionRunError, TaskResult } from "#app/compare/session-schema.ts";
import { buttonCls, fieldCls } from "#app/compare/compare-styles.ts";
import { formatMs } from "#app/compare/summary.ts";
import type { ChatParameters, LiveTurn } from "#app/compare/use-compare.ts";
import { ChatMarkdown } from "#app/demos/chat/markdown.tsx";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import { formatBytes } from "#app/demos/shared/run-inference.ts";
import { TokenWayOut } from "#app/demos/shared/demo-error.tsx";

const mediaWord = (contentType: string) => (contentType.startsWith("audio/") ? "audio" : contentType.startsWith("video/") ? "video" : contentType.startsWith("image/") ? "image" : "file");

export function MetricsLine({ metrics }: { metrics: SessionMetrics }) {
  const parts = [
    metrics.timeToFirstTokenMs !== null ? `first token ${formatMs(metrics.timeToFirstTokenMs)}` : null,
    metrics.tokensPerSecond !== null ? `${metrics.tokensPerSecond.toFixed(1)} tokens/s` : null,
    `total ${formatMs(metrics.totalMs)}`,
    metrics.promptTokens !== null ? `${metrics.promptTokens} prompt` : null,
    metrics.completionTokens !== null ? `${metrics.completionTokens} completion tokens${metrics.usageSource === "counted" ? " (counted)" : ""}` : null,
    metrics.usageSource === "provider" ? "usage reported by the provider" : null,
  ].filter((p): p is string => p !== null);
  return (
    <p className="mt-2 border-t border-gray-100 pt-1 text-xs text-gray-600 dark:border-gray-800 dark:text-gray-400" data-compare-metrics="">
      {parts.join(" · ")}
    </p>
  );
}

export function ErrorInPlace({ error }: { error: SessionRunError }) {
  return (
    <div role="alert" data-compare-error={error.code} className="rounded-md border border-red-300 bg-red-50 px-2 py-1.5 text-xs text-red-900 dark:border-red-800 dark:bg-red-950/50 dark:text-red-100">
      <p className="font-medium">{error.hint ?? error.message}</p>
      {error.hint ? <p className="mt-1 break-words font-mono">{error.message}</p> : null}
      <TokenWayOut code={error.code} />
    </div>
  );
}

export function ColumnHeader({ info, index, onRemove }: { info: CompareColumnInfo; index: number; onRemove?: () => void }) {
  return (
    <header className="flex items-start justify-between gap-2 border-b border-gray-200 pb-2 dark:border-gray-800">
      <div className="min-w-0">
        <h2 className="break-words text-sm font-semibold">
          <span className="sr-only">Column {index + 1}: </span>
          <a href={`/${info.modelId}`} className="hover:underline">
            {info.modelId}
          </a>
        </h2>
        <p className="text-xs text-gray-600 dark:text-gray-400">on {info.label}</p>
      </div>
      {onRemove ? (
        <button type="button" onClick={onRemove} className={buttonCls} aria-label={`Remove ${info.modelId} on ${info.label}`}>
          Remove
        </button>
      ) : null}
    </header>
  );
}

const OVERRIDES = [
  ["temperature", "Temperature", 0.05],
  ["max_tokens", "Max tokens", 1],
  ["top_p", "Top-p", 0.01],
] as const;

/** This column's own parameters; an empty field takes the shared value. */
export function OverridesForm({ overrides, shared, onChange, disabled }: { overrides: Partial<ChatParameters>; shared: ChatParameters; onChange: (o: Partial<ChatParameters>) => void; disabled: boolean }) {
  const id = useId();
  const set = Object.keys(overrides).length;
  return (
    <details className="text-xs" data-column-overrides="">
      <summary className="cursor-pointer select-none text-gray-700 dark:text-gray-300">Parameters{set > 0 ? ` (${set} own)` : " (shared)"}</summary>
      <div className="mt-1 grid grid-cols-3 gap-1">
        {OVERRIDES.map(([name, label, step]) => (
          <div key={name}>
            <label htmlFor={`${id}-${name}`} className="block text-gray-600 dark:text-gray-400">
              {label}
            </label>
            <input
              id={`${id}-${name}`}
              name={name}
              type="number"
              step={step}
              value={overrides[name] ?? ""}
              placeholder={String(shared[name])}
              disabled={disabled}
              onChange={(e) => {
                const { [name]: _drop, ...rest } = overrides;
                onChange(e.target.value === "" || Number.isNaN(Number(e.target.value)) ? rest : { ...rest, [name]: Number(e.target.value) });
              }}
              className={fieldCls}
            />
          </div>
        ))}
      </div>
    </details>
  );
}

/** A column's conversation, with Regenerate and edit-and-resend for this column alone. */
export function ChatColumnBody({
  turns,
  busy,
  readOnly,
  onRegenerate,
  onResend,
}: {
  turns: LiveTurn[];
  busy: boolean;
  readOnly: boolean;
  onRegenerate?: () => void;
  onResend?: (history: LiveTurn[], text: string) => void;
}) {
  const [editing, setEditing] = useState<{ index: number; text: string } | null>(null);
  const id = useId();
  const last = turns.at(-1);
  function resend(e: FormEvent) {
    e.preventDefault();
    if (!editing || !editing.text.trim() || !onResend) return;
    onResend(turns.slice(0, editing.index), editing.text.trim());
    setEditing(null);
  }
  return (
    <div className="space-y-2 text-sm">
      <div role="log" aria-label="Conversation" className="space-y-2">
        {turns.length === 0 ? <p className="text-xs text-gray-600 dark:text-gray-400">No messages yet.</p> : null}
        {turns.map((t, i) =>
          t.role === "user" ? (
            <div key={t.id} className="ml-4 rounded-lg bg-indigo-600 px-2 py-1.5 text-white" data-turn="user">
              <p className="whitespace-pre-wrap break-words">{t.content}</p>
              {readOnly ? null : (
                <button type="button" disabled={busy} onClick={() => setEditing({ index: i, text: t.content })} className="mt-1 text-xs text-indigo-100 underline hover:text-white disabled:opacity-50">
                  Edit and resend here
                </button>
              )}
            </div>
          ) : (
            <div key={t.id} className="mr-4 rounded-lg bg-white px-2 py-1.5 ring-1 ring-gray-200 dark:bg-gray-950 dark:ring-gray-800" data-turn="assistant" data-status={t.status}>
              {t.content === "" && t.status === "streaming" ? (
                <p className="animate-pulse text-gray-600 dark:text-gray-400">Waiting for the first token…</p>
              ) : t.content !== "" ? (
                <ChatMarkdown source={t.content} />
              ) : null}
              {t.status === "stopped" ? <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">Stopped.</p> : null}
              {t.error ? <ErrorInPlace error={t.error} /> : null}
              {t.metrics ? <MetricsLine metrics={t.metrics} /> : null}
            </div>
          ),
        )}
      </div>
      {editing ? (
        <form onSubmit={resend} className="space-y-1">
          <label htmlFor={`${id}-edit`} className="block text-xs font-medium">
            Edit the message and resend it to this column
          </label>
          <textarea id={`${id}-edit`} rows={2} value={editing.text} onChange={(e) => setEditing({ ...editing, text: e.target.value })} className={fieldCls} />
          <div className="flex gap-2">
            <button type="submit" className={buttonCls}>
              Resend here
            </button>
            <button type="button" onClick={() => setEditing(null)} className={buttonCls}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {readOnly || !onRegenerate ? null : (
        <button type="button" onClick={onRegenerate} disabled={busy || !last || last.role !== "assistant"} className={buttonCls}>
          Regenerate this column
        </button>
      )}
    </div>
  );
}

/**
 * A non-chat column's result, drawn with the task widget's output component. A media result
 * without its bytes (a reopened session) says so, with its type and size.
 */
export function TaskColumnBody({ task, result, sent, media, busy, modelId, streamed = null }: { task: string; result: TaskResult | null; sent: SentInput | null; media: MediaAnswer | null; busy: boolean; modelId: string; streamed?: string | null }) {
  if (busy && streamed) {
    return (
      <div data-compare-streaming="" className="text-sm">
        <CompareOutput task={task} output={{ generated_text: streamed }} media={null} sent={sent ?? { text: "" }} modelId={modelId} />
      </div>
    );
  }
  if (busy) return <p className="animate-pulse text-sm text-gray-600 dark:text-gray-400">Running…</p>;
  if (!result) return <p className="text-xs text-gray-600 dark:text-gray-400">Not run yet.</p>;
  if (result.kind === "error") return <ErrorInPlace error={result.error} />;
  return (
    <div data-compare-result="" className="text-sm">
      {result.kind === "label-scores" ? (
        <LabelScoreChart items={result.items} caption={`Labels by ${modelId}`} />
      ) : result.kind === "output" ? (
        <CompareOutput task={task} output={result.output} media={null} sent={sent ?? { text: "" }} modelId={modelId} />
      ) : media ? (
        <CompareOutput task={task} output={null} media={media} sent={sent ?? { text: "" }} modelId={modelId} />
      ) : (
        <p data-media-not-kept="" className="rounded-md border border-dashed border-gray-300 px-2 py-1.5 text-xs text-gray-700 dark:border-gray-700 dark:text-gray-300">
          The generated {mediaWord(result.contentType)} ({result.contentType}, {formatBytes(result.bytes)}) is not kept in a session file. Run this setup live to generate it again.
        </p>
      )}
      <MetricsLine metrics={result.metrics} />
    </div>
  );
}

import type { TaskDemoEntry } from "@huggingface/tasks";
import type { ReactNode } from "react";
import { TaskAudio, TaskImage } from "#app/task-guides/task-media.tsx";
import { SimpleTable } from "#app/ui/simple-table.tsx";

/** A demo entry whose media filename is already turned into a URL on the asset host. */
export type ResolvedDemoEntry = TaskDemoEntry & { url?: string };

export interface ResolvedDemo {
  inputs: ResolvedDemoEntry[];
  outputs: ResolvedDemoEntry[];
}

// Literal classes so Tailwind generates them; each pairing meets WCAG AA in both themes.
const TOKEN_STYLES = [
  { mark: "bg-sky-100 dark:bg-sky-900/60", tag: "text-sky-800 dark:text-sky-200" },
  { mark: "bg-amber-100 dark:bg-amber-900/60", tag: "text-amber-800 dark:text-amber-200" },
  { mark: "bg-emerald-100 dark:bg-emerald-900/60", tag: "text-emerald-800 dark:text-emerald-200" },
  { mark: "bg-fuchsia-100 dark:bg-fuchsia-900/60", tag: "text-fuchsia-800 dark:text-fuchsia-200" },
  { mark: "bg-rose-100 dark:bg-rose-900/60", tag: "text-rose-800 dark:text-rose-200" },
] as const;

function TextWithTokens({ entry }: { entry: Extract<TaskDemoEntry, { type: "text-with-tokens" }> }) {
  const types = [...new Set(entry.tokens.map((t) => t.type))];
  const styleOf = (type: string) => TOKEN_STYLES[types.indexOf(type) % TOKEN_STYLES.length] ?? TOKEN_STYLES[0];
  const tokens = [...entry.tokens].sort((a, b) => a.start - b.start);
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [i, token] of tokens.entries()) {
    // Overlapping or out-of-range spans would duplicate text; the package has none, but skip them.
    if (token.start < at || token.end > entry.text.length || token.end <= token.start) continue;
    if (token.start > at) parts.push(entry.text.slice(at, token.start));
    const style = styleOf(token.type);
    parts.push(
      <mark key={i} data-token-type={token.type} className={`mx-0.5 rounded px-1 py-0.5 text-gray-900 dark:text-gray-50 ${style.mark}`}>
        {entry.text.slice(token.start, token.end)}
        <span className={`ml-1.5 text-[0.7rem] font-bold tracking-wide uppercase ${style.tag}`}>{token.type}</span>
      </mark>,
    );
    at = token.end;
  }
  if (at < entry.text.length) parts.push(entry.text.slice(at));
  return <p data-tokens="" className="leading-8">
      {parts}
    </p>;
}

function Chart({ entry, barClass }: { entry: Extract<TaskDemoEntry, { type: "chart" }>; barClass: string }) {
  const max = Math.max(1, ...entry.data.map((d) => d.score));
  return (
    <ul className="space-y-2" data-demo-chart="">
      {entry.data.map((d, i) => (
        <li key={i} className="grid grid-cols-[minmax(0,9rem)_1fr_3.5rem] items-center gap-3 text-sm">
          <span className="truncate" title={d.label}>
            {d.label}
          </span>
          <span className="h-3 rounded-full bg-gray-100 dark:bg-gray-800" aria-hidden="true">
            <span
              data-bar=""
              className={`block h-3 rounded-full ${barClass}`}
              style={{ width: `${Math.max(0, Math.min(100, (d.score / max) * 100)).toFixed(1)}%` }}
            />
          </span>
          <span className="text-right font-mono tabular-nums">{d.score.toFixed(3)}</span>
        </li>
      ))}
    </ul>
  );
}

export function DemoEntry({ entry, side, barClass }: { entry: ResolvedDemoEntry; side: "input" | "output"; barClass: string }) {
  const title = side === "input" ? "Input" : "Output";
  let body: ReactNode;
  let label: string = title;
  switch (entry.type) {
    case "text":
      label = entry.label || title;
      body = <p className="whitespace-pre-wrap">{entry.content}</p>;
      break;
    case "text-with-tokens":
      body = <TextWithTokens entry={entry} />;
      break;
    case "img":
      label = `${title} image`;
      body = <TaskImage src={entry.url ?? ""} filename={entry.filename} alt={`Example ${side} image (${entry.filename})`} />;
      break;
    case "audio":
      label = `${title} audio`;
      body = <TaskAudio src={entry.url ?? ""} filename={entry.filename} label={`Example ${side} audio (${entry.filename})`} />;
      break;
    case "chart":
      body = <Chart entry={entry} barClass={barClass} />;
      break;
    case "tabular":
      body = <SimpleTable rows={entry.table} caption={`${title} table`} />;
      break;
  }
  return (
    <div data-demo-entry={entry.type} className="rounded-lg border border-gray-200 bg-white p-3 dark:border-gray-800 dark:bg-gray-950">
      <p className="mb-2 text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400">{label}</p>
      {body}
    </div>
  );
}

/** The package's demo: inputs beside outputs, each entry rendered by its type; bars in `barClass`. */
export function TaskDemo({ demo, barClass }: { demo: ResolvedDemo; barClass: string }) {
  return (
    // min-w-0: a grid item is otherwise as wide as its widest image's width attribute (448 px).
    <div className="grid gap-4 md:grid-cols-2">
      <div className="min-w-0 space-y-3" data-demo-side="inputs">
        <h3 className="text-sm font-semibold text-gray-700 dark:text-gray-300">Inputs</h3>
        {demo.inputs.map((entry, i) => (
          <DemoEntry key={i} entry={entry} side="input" barClass={barClass} />
        ))}
      </div>
      <div className="min-w-0 space-y-3" data-demo-side="outputs">
        <h3 className="text-sm font-semibold text-gray-700 dark:text-gray-300">Outputs</h3>
        {demo.outputs.map((entry, i) => (
          <DemoEntry key={i} entry={entry} side="output" barClass={barClass} />
        ))}
      </div>
    </div>
  );
}

/**
 * The task guide's example, shown when nothing can run this model for the visitor. Labelled as
 * such in words, never styled or announced as a result of this model. A widget may draw the
 * example's output with its own output component (`output`), so the example looks like what a run
 * would show; otherwise each entry is drawn by its type.
 */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { HighlightedText } from "#app/demos/shared/highlighted-text.tsx";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import type { ExampleEntry, TaskExample } from "#app/demos/shared/widget-info.ts";
import { SimpleTable } from "#app/ui/simple-table.tsx";

export const EXAMPLE_LABEL = "Example from the task guide, not produced by this model";

type MediaEntry = Extract<ExampleEntry, { type: "media" }>;

/** The file named in words: what stands in when there is no URL or the asset host cannot be reached. */
function MediaName({ entry, reason }: { entry: MediaEntry; reason: string }) {
  return (
    <p data-example-media={entry.kind} className="rounded border border-dashed border-gray-300 px-2 py-1.5 text-xs text-gray-700 dark:border-gray-700 dark:text-gray-300">
      {entry.kind === "image" ? "An image" : "A recording"}, <code className="break-all">{entry.filename}</code>,{" "}
      {entry.kind === "image" ? "not shown here" : "cannot be played here"}: {reason}.
    </p>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "its asset host";
  }
}

/**
 * A guide's image or recording from its asset host, captioned with its file name. A load that
 * fails (offline, host down; also one that failed before hydration, seen as a complete image with
 * no width or a recording with no source) is replaced by the file's name, never a broken-image
 * icon or a player that does nothing.
 */
function ExampleMedia({ entry, side }: { entry: MediaEntry; side: "input" | "output" }) {
  const ref = useRef<HTMLImageElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
    const audio = audioRef.current;
    if (audio && (audio.error !== null || audio.networkState === HTMLMediaElement.NETWORK_NO_SOURCE)) setFailed(true);
  }, []);
  if (!entry.url) return <MediaName entry={entry} reason="the task guide keeps its media on its asset host" />;
  if (failed) {
    return <MediaName entry={entry} reason={`it is on the task guide’s asset host, ${hostOf(entry.url)}, which this browser could not reach (offline, or the host is down)`} />;
  }
  const description = `Example ${side} ${entry.kind === "image" ? "image" : "recording"} from the task guide (${entry.filename})`;
  return (
    <figure data-example-media={entry.kind} className="space-y-1">
      {entry.kind === "image" ? (
        <img
          ref={ref}
          src={entry.url}
          alt={description}
          onError={() => setFailed(true)}
          className="h-auto max-h-56 w-full max-w-md rounded border border-gray-200 object-contain dark:border-gray-700"
        />
      ) : (
        // Its length is asked for at once, as the image beside it is loaded: with preload="none" an
        // unreachable host showed a player that looked ready and did nothing when pressed.
        <audio ref={audioRef} controls preload="metadata" src={entry.url} aria-label={description} onError={() => setFailed(true)} className="w-full" />
      )}
      <figcaption className="text-xs text-gray-700 dark:text-gray-300">
        <code className="break-all">{entry.filename}</code>
      </figcaption>
    </figure>
  );
}

function Entry({ entry, caption, side }: { entry: ExampleEntry; caption: string; side: "input" | "output" }) {
  switch (entry.type) {
    case "text":
      return (
        <div>
          {entry.label ? <p className="text-xs font-medium text-gray-600 dark:text-gray-400">{entry.label}</p> : null}
          <p className="whitespace-pre-wrap break-words">{entry.content}</p>
        </div>
      );
    case "chart":
      return <LabelScoreChart items={entry.data} caption={caption} />;
    case "text-with-tokens":
      return <HighlightedText text={entry.text} spans={entry.tokens.map((t) => ({ start: t.start, end: t.end, label: t.type }))} />;
    case "tabular":
      return <SimpleTable rows={entry.table} caption={caption} size="xs" />;
    case "media":
      return <ExampleMedia entry={entry} side={side} />;
  }
}

export function ExampleOutput({ example, reason, output, compact = false }: { example: TaskExample; reason: string; output?: ReactNode; compact?: boolean }) {
  return (
    <section aria-label={EXAMPLE_LABEL} data-widget-example="" className="rounded-md border border-dashed border-gray-300 p-3 text-sm dark:border-gray-700">
      <p className="font-semibold text-gray-900 dark:text-gray-100">{EXAMPLE_LABEL}</p>
      <p className="mt-0.5 text-xs text-gray-700 dark:text-gray-300">{reason}</p>
      {/* In the model page's narrow slot (compact), side by side would squeeze both halves. */}
      <div className={`mt-3 grid gap-4 ${compact ? "" : "sm:grid-cols-2"}`}>
        <div className="space-y-2" data-example-side="inputs">
          <p className="text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400">Example input</p>
          {example.inputs.map((e, i) => (
            <Entry key={i} entry={e} caption="Example input table" side="input" />
          ))}
        </div>
        <div className="min-w-0 space-y-2" data-example-side="outputs">
          <p className="text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400">Example output</p>
          {output ?? example.outputs.map((e, i) => <Entry key={i} entry={e} caption="Example output scores" side="output" />)}
        </div>
      </div>
    </section>
  );
}

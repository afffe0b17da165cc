/**
 * The task guide's example, shown when nothing can run this model for the visitor. Labelled as
 * such in words, never styled or announced as a result of this model.
 */
import { HighlightedText } from "#app/demos/shared/highlighted-text.tsx";
import { LabelScoreChart } from "#app/demos/shared/label-score-chart.tsx";
import type { ExampleEntry, TaskExample } from "#app/demos/shared/widget-info.ts";
import { SimpleTable } from "#app/ui/simple-table.tsx";

export const EXAMPLE_LABEL = "Example from the task guide, not produced by this model";

function Entry({ entry, caption }: { entry: ExampleEntry; caption: string }) {
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
      return (
        <p data-example-media={entry.kind} className="rounded border border-dashed border-gray-300 px-2 py-1.5 text-xs text-gray-700 dark:border-gray-700 dark:text-gray-300">
          {entry.kind === "image" ? "An image" : "A recording"}, <code className="break-all">{entry.filename}</code>, not shown here: the task guide keeps its media on its asset host.
        </p>
      );
  }
}

export function ExampleOutput({ example, reason }: { example: TaskExample; reason: string }) {
  return (
    <section aria-label={EXAMPLE_LABEL} data-widget-example="" className="rounded-md border border-dashed border-gray-300 p-3 text-sm dark:border-gray-700">
      <p className="font-semibold text-gray-900 dark:text-gray-100">{EXAMPLE_LABEL}</p>
      <p className="mt-0.5 text-xs text-gray-700 dark:text-gray-300">{reason}</p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <p className="text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400">Example input</p>
          {example.inputs.map((e, i) => (
            <Entry key={i} entry={e} caption="Example input table" />
          ))}
        </div>
        <div className="space-y-2">
          <p className="text-xs font-semibold uppercase tracking-wide text-gray-600 dark:text-gray-400">Example output</p>
          {example.outputs.map((e, i) => (
            <Entry key={i} entry={e} caption="Example output scores" />
          ))}
        </div>
      </div>
    </section>
  );
}

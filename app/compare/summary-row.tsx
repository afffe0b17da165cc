/** The summary row: which column was fastest and which used the fewest reported tokens. */
import { type CompareSummary, type ColumnFigures, summarise } from "#app/compare/summary.ts";

const LINES: Array<[keyof Omit<CompareSummary, "hasCost">, string]> = [
  ["firstToken", "Fastest first token"],
  ["throughput", "Most tokens per second"],
  ["total", "Shortest total time"],
  ["fewestTokens", "Fewest tokens (provider-reported usage)"],
];

export function SummaryRow({ figures, label }: { figures: ColumnFigures[]; label: (key: string) => string }) {
  const s = summarise(figures);
  const lines = LINES.filter(([k]) => s[k] !== null);
  return (
    <section aria-label="Summary" className="rounded-lg border border-gray-200 bg-gray-50 p-3 text-sm dark:border-gray-800 dark:bg-gray-900/50" data-compare-summary="">
      <h2 className="font-semibold">Summary</h2>
      {lines.length === 0 ? (
        <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">Run at least two columns to compare their figures.</p>
      ) : (
        <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-2">
          {lines.map(([k, text]) => (
            <div key={k} className="flex gap-2" data-summary={k}>
              <dt className="text-gray-600 dark:text-gray-400">{text}</dt>
              <dd className="font-medium">{label(s[k] ?? "")}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">No provider reported a price, so no column is marked cheapest.</p>
    </section>
  );
}

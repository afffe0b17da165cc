/**
 * Label-and-score output as a bar chart. The bars are drawn for sighted readers and hidden from
 * assistive technology; a real table with the same figures stays in the page for screen readers.
 */
export interface LabelScore {
  label: string;
  score: number;
}

export function percent(score: number): string {
  return `${(Math.max(0, Math.min(1, score)) * 100).toFixed(1)}%`;
}

export function LabelScoreChart({ items, caption, labelHeader = "Label" }: { items: readonly LabelScore[]; caption: string; labelHeader?: string }) {
  return (
    <figure className="space-y-1.5" data-label-scores="">
      <div aria-hidden="true" className="space-y-1.5">
        {items.map((item, i) => (
          <div key={`${item.label}-${i}`} className="text-sm" data-bar={item.label}>
            <div className="flex justify-between gap-3">
              <span className="min-w-0 break-words font-medium text-gray-900 dark:text-gray-100">{item.label}</span>
              <span className="shrink-0 tabular-nums text-gray-700 dark:text-gray-300">{percent(item.score)}</span>
            </div>
            <div className="mt-0.5 h-2 rounded-full bg-gray-100 dark:bg-gray-800">
              <div
                className={`h-2 rounded-full ${i === 0 ? "bg-indigo-600 dark:bg-indigo-400" : "bg-indigo-300 dark:bg-indigo-700"}`}
                style={{ width: percent(item.score) }}
              />
            </div>
          </div>
        ))}
      </div>
      {/* A table ignores sr-only's width, and would widen a phone's page; its wrapper does not. */}
      <div className="sr-only">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeader}</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={`${item.label}-${i}`}>
                <th scope="row">{item.label}</th>
                <td>{percent(item.score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

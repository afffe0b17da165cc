/**
 * Text with marked spans (entities, an answer), each span labelled for screen readers, and a
 * legend of the span types. Spans are drawn from character offsets; overlapping or out-of-range
 * spans are dropped (see output-shapes.ts).
 */
export interface Span {
  start: number;
  end: number;
  label: string;
}

// Light and dark pairs that keep 4.5:1 text contrast on their own background.
const PALETTE = [
  "bg-sky-100 text-sky-950 dark:bg-sky-900 dark:text-sky-50",
  "bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50",
  "bg-emerald-100 text-emerald-950 dark:bg-emerald-900 dark:text-emerald-50",
  "bg-rose-100 text-rose-950 dark:bg-rose-900 dark:text-rose-50",
  "bg-violet-100 text-violet-950 dark:bg-violet-900 dark:text-violet-50",
  "bg-lime-100 text-lime-950 dark:bg-lime-900 dark:text-lime-50",
];

export function HighlightedText({ text, spans, legend = true }: { text: string; spans: readonly Span[]; legend?: boolean }) {
  const labels = [...new Set(spans.map((s) => s.label))];
  const color = (label: string) => PALETTE[labels.indexOf(label) % PALETTE.length];
  const parts: Array<{ text: string; span: Span | null }> = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at) parts.push({ text: text.slice(at, span.start), span: null });
    parts.push({ text: text.slice(span.start, span.end), span });
    at = span.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), span: null });
  return (
    <div className="space-y-2" data-highlighted-text="">
      <p className="whitespace-pre-wrap break-words leading-7">
        {parts.map((p, i) =>
          p.span ? (
            <mark key={i} className={`rounded px-1 py-0.5 ${color(p.span.label)}`} data-span={p.span.label}>
              {p.text}
              <span className="ml-1 text-[0.7rem] font-semibold uppercase">{p.span.label}</span>
            </mark>
          ) : (
            <span key={i}>{p.text}</span>
          ),
        )}
      </p>
      {legend && labels.length > 0 ? (
        <ul className="flex flex-wrap gap-2 text-xs" aria-label="Legend">
          {labels.map((label) => (
            <li key={label} className={`rounded px-1.5 py-0.5 font-medium ${color(label)}`}>
              {label}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

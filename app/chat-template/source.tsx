import { useMemo, useState, type MouseEvent } from "react";
import { CopyButton } from "#app/ui/copy-button.tsx";

export interface SourceTemplate {
  name: string | null;
  text: string;
  /** shiki HTML from the server (trusted: shiki escapes the code). */
  html: string;
}

const LINE_OPEN = '<span class="line">';

/** Marks the nth (1-based) line of shiki HTML, so an error's line stands out with or without JavaScript. */
export function markSourceLine(html: string, line: number | null): string {
  if (line === null || line < 1) return html;
  let at = -1;
  for (let i = 0; i < line; i++) {
    at = html.indexOf(LINE_OPEN, at + 1);
    if (at < 0) return html;
  }
  return `${html.slice(0, at)}<span class="line ct-error-line" data-ct-error-line="${line}">${html.slice(at + LINE_OPEN.length)}`;
}

/**
 * A chat template's source, highlighted on the server, with line numbers. For the named-templates
 * form (`default`, `tool_use`, `rag`, …) each name is a tab; the tabs are links, so they work
 * without JavaScript, and switch in place with it.
 */
export function ChatTemplateSource({
  templates,
  selected,
  onSelect,
  hrefFor,
  errorLine = null,
  heading = "Template source",
}: {
  templates: readonly SourceTemplate[];
  selected: number;
  onSelect?: (index: number) => void;
  hrefFor: (index: number) => string;
  errorLine?: number | null;
  heading?: string;
}) {
  const [wrap, setWrap] = useState(true);
  const current = templates[selected] ?? templates[0];
  const html = useMemo(() => (current ? markSourceLine(current.html, errorLine) : ""), [current, errorLine]);
  if (!current) return null;
  const lineCount = current.text.split("\n").length;
  const named = templates.length > 1 || current.name !== null;
  const choose = (event: MouseEvent<HTMLAnchorElement>, index: number) => {
    if (!onSelect || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onSelect(index);
  };
  return (
    <section aria-label={heading} className="overflow-hidden rounded-lg border border-gray-200 dark:border-gray-800" data-ct-source="">
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 bg-gray-50 px-3 py-1.5 text-xs text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300">
        <span className="font-medium">
          {heading}
          <span className="ml-2 font-normal text-gray-500 dark:text-gray-400">
            {lineCount.toLocaleString("en-US")} {lineCount === 1 ? "line" : "lines"}, {current.text.length.toLocaleString("en-US")} chars
          </span>
        </span>
        <span className="flex items-center gap-3">
          <button type="button" className="hover:underline" onClick={() => setWrap((w) => !w)} aria-pressed={wrap}>
            {wrap ? "No wrap" : "Wrap lines"}
          </button>
          <CopyButton text={current.text} description="chat template" />
        </span>
      </header>
      {named ? (
        <nav aria-label="Named templates" className="flex flex-wrap gap-1 border-b border-gray-200 px-2 pt-2 dark:border-gray-800">
          {templates.map((t, i) => (
            <a
              key={`${t.name ?? ""}-${i}`}
              href={hrefFor(i)}
              onClick={(e) => choose(e, i)}
              aria-current={i === selected ? "page" : undefined}
              data-ct-template-tab={t.name ?? ""}
              className={`-mb-px rounded-t-md border px-3 py-1 font-mono text-xs ${i === selected ? "border-gray-200 border-b-white bg-white font-semibold text-gray-900 dark:border-gray-800 dark:border-b-gray-950 dark:bg-gray-950 dark:text-white" : "border-transparent text-gray-600 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white"}`}
            >
              {t.name ?? "default"}
            </a>
          ))}
        </nav>
      ) : null}
      <div className={`ct-source max-h-[40rem] overflow-auto bg-white dark:bg-gray-950 ${wrap ? "" : "ct-nowrap"}`} dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  );
}

import katexStylesheet from "katex/dist/katex.min.css?url";
import { HtmlIsland } from "#app/ui/html-island.tsx";
import type { IslandHtml } from "#app/utils/html-island.ts";

/**
 * Shows HTML produced by `renderMarkdown` (app/markdown/render-markdown.server.ts). The string is
 * trusted only because that renderer sanitises it; never pass anything else here.
 *
 * Styling comes from app/markdown/markdown.css (imported once by app/app.css). KaTeX's stylesheet
 * (and, through it, its fonts) is requested only when the document contains math: React 19 hoists
 * a `<link rel="stylesheet" precedence>` into <head> and loads it once however many times it is
 * rendered, so no route has to list it in `links`.
 */
export function MarkdownContent({
  html,
  hasMath = false,
  className,
  id,
}: {
  html: IslandHtml | string;
  hasMath?: boolean;
  className?: string;
  id?: string;
}) {
  return (
    <>
      {hasMath ? <link rel="stylesheet" href={katexStylesheet} precedence="default" /> : null}
      <HtmlIsland island={html} id={id} className={className ? `markdown ${className}` : "markdown"} />
    </>
  );
}

/** The stylesheet URL, for routes that prefer to list it in `links` themselves. */
export const katexStylesheetHref: string = katexStylesheet;

import type { ReactNode } from "react";
import { CopyButton } from "#app/ui/copy-button.tsx";
import { HtmlIsland } from "#app/ui/html-island.tsx";
import type { IslandHtml } from "#app/utils/html-island.ts";

/**
 * Code highlighted on the server (`html`, trusted shiki output) with a copy button that copies
 * `text`, the exact source. The two always come from the same string, so what is copied is what
 * is shown, indentation included.
 */
export function CodeBlock({
  html,
  text,
  title,
  badge,
  copyDescription,
  extraActions,
}: {
  html: IslandHtml | string;
  text: string;
  title?: string;
  badge?: ReactNode;
  copyDescription?: string;
  extraActions?: ReactNode;
}) {
  return (
    <figure className="code-block overflow-hidden rounded-lg border border-gray-200 dark:border-gray-800" data-code-block="">
      <figcaption className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 bg-gray-50 px-3 py-1.5 text-xs text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300">
        <span className="flex items-center gap-2 font-medium">
          {title}
          {badge}
        </span>
        <span className="flex items-center gap-2">
          {extraActions}
          <CopyButton text={text} description={copyDescription ?? title ?? "code"} />
        </span>
      </figcaption>
      <HtmlIsland island={html} className="text-[13px] leading-relaxed [&_pre]:overflow-x-auto [&_pre]:p-3 [&_pre]:font-mono" data-code="" />
    </figure>
  );
}

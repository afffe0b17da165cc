import type { ReactNode } from "react";

type Level = 1 | 2 | 3 | 4 | 5 | 6;

/**
 * The same heading markup renderMarkdown emits, for headings written in React (task pages):
 * <div class="heading-wrapper"><hN id>…</hN><a class="heading-anchor" href="#id">#</a></div>.
 * The permalink sits outside the heading so the heading's accessible name is only its text; it is
 * shown on hover and on keyboard focus by app/markdown/markdown.css.
 */
export function HeadingWithAnchor({
  level,
  id,
  label,
  children,
  className,
}: {
  level: Level;
  id: string;
  /** Plain-text name for the permalink's aria-label (defaults to children when it is a string). */
  label?: string;
  children: ReactNode;
  className?: string;
}) {
  const Tag = `h${level}` as const;
  const name = label ?? (typeof children === "string" ? children : id);
  return (
    <div className={`heading-wrapper heading-wrapper-h${level}`}>
      <Tag id={id} className={className}>
        {children}
      </Tag>
      <a className="heading-anchor" href={`#${id}`} aria-label={`Link to this section: ${name}`}>
        #
      </a>
    </div>
  );
}

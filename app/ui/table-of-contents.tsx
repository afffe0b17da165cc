import { useId } from "react";

export type TocHeading = { depth: number; id: string; text: string };

type TocNode = TocHeading & { children: TocNode[] };

/** Cards shorter than this (in rendered HTML characters) read fine without a table of contents. */
const LONG_DOCUMENT_CHARS = 6_000;
const MIN_ENTRIES = 3;

/**
 * Which headings the table of contents lists: levels down to `maxDepth`, and without a lone
 * top-level title (most cards start with a single "# Model name" that would only wrap the rest).
 */
export function tocEntries(headings: readonly TocHeading[], maxDepth = 3): TocHeading[] {
  const shallow = headings.filter((h) => h.depth <= maxDepth && h.text.trim() !== "");
  if (shallow.length === 0) return [];
  const top = Math.min(...shallow.map((h) => h.depth));
  const atTop = shallow.filter((h) => h.depth === top);
  if (atTop.length === 1 && shallow.length > 1) return shallow.filter((h) => h !== atTop[0]);
  return shallow;
}

/** True when a document is long enough, and has enough sections, to deserve a table of contents. */
export function shouldShowTableOfContents(doc: { html: string; headings: readonly TocHeading[] }): boolean {
  return doc.html.length >= LONG_DOCUMENT_CHARS && tocEntries(doc.headings).length >= MIN_ENTRIES;
}

/** Nests a flat heading list by depth; a deeper heading without a parent attaches to the nearest shallower one. */
function buildTree(headings: readonly TocHeading[]): TocNode[] {
  const roots: TocNode[] = [];
  const stack: TocNode[] = [];
  for (const heading of headings) {
    const node: TocNode = { ...heading, children: [] };
    while (stack.length > 0 && (stack[stack.length - 1]?.depth ?? 0) >= heading.depth) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else roots.push(node);
    stack.push(node);
  }
  return roots;
}

function TocList({ nodes }: { nodes: TocNode[] }) {
  return (
    <ol>
      {nodes.map((node) => (
        <li key={node.id}>
          <a href={`#${node.id}`}>{node.text}</a>
          {node.children.length > 0 ? <TocList nodes={node.children} /> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * A nested list of links to the document's headings. Renders nothing when there are fewer than
 * `minEntries` entries; use `shouldShowTableOfContents` to also take the length into account.
 */
export function TableOfContents({
  headings,
  title = "On this page",
  maxDepth = 3,
  minEntries = MIN_ENTRIES,
  className,
}: {
  headings: readonly TocHeading[];
  title?: string;
  maxDepth?: number;
  minEntries?: number;
  className?: string;
}) {
  const titleId = useId();
  const entries = tocEntries(headings, maxDepth);
  if (entries.length < minEntries) return null;
  return (
    <nav aria-label="Table of contents" className={className ? `toc ${className}` : "toc"}>
      <p className="toc-title" id={titleId}>
        {title}
      </p>
      <TocList nodes={buildTree(entries)} />
    </nav>
  );
}

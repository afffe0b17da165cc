import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MarkdownContent } from "#app/markdown/markdown-content.tsx";
import { shouldShowTableOfContents, TableOfContents, tocEntries } from "#app/ui/table-of-contents.tsx";
import { HeadingWithAnchor } from "#app/markdown/heading-anchor.tsx";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";

describe("MarkdownContent", () => {
  it("inserts the rendered HTML inside a .markdown container", () => {
    const html = renderToStaticMarkup(<MarkdownContent html="<p>Hi</p>" className="mt-4" />);
    expect(html).toBe('<div class="markdown mt-4"><p>Hi</p></div>');
  });

  it("adds KaTeX's stylesheet only when there is math", async () => {
    const math = await renderMarkdown("$x^2$");
    const withMath = renderToStaticMarkup(<MarkdownContent html={math.html} hasMath={math.hasMath} />);
    // Vitest serves it from node_modules (vitest.config.ts); a Vite build yields /assets/katex.min-[hash].css.
    expect(withMath).toMatch(/^<link rel="stylesheet" href="\/[^"]*katex\.min[^"]*\.css" data-precedence="default"\/>/);
    const without = renderToStaticMarkup(<MarkdownContent html="<p>x</p>" />);
    expect(without).not.toContain("<link");
  });
});

describe("TableOfContents", () => {
  const headings = [
    { depth: 1, id: "md-card", text: "Card" },
    { depth: 2, id: "md-a", text: "A & <b>" },
    { depth: 3, id: "md-a1", text: "A.1" },
    { depth: 4, id: "md-deep", text: "Too deep" },
    { depth: 2, id: "md-b", text: "B" },
    { depth: 3, id: "md-b1", text: "B.1" },
  ];

  it("renders an accessible nested list and drops a lone title and deep levels", () => {
    const html = renderToStaticMarkup(<TableOfContents headings={headings} />);
    expect(html).toContain('<nav aria-label="Table of contents" class="toc">');
    expect(html).toContain(
      '<ol><li><a href="#md-a">A &amp; &lt;b&gt;</a><ol><li><a href="#md-a1">A.1</a></li></ol></li><li><a href="#md-b">B</a><ol><li><a href="#md-b1">B.1</a></li></ol></li></ol>',
    );
    expect(html).not.toContain("md-card");
    expect(html).not.toContain("md-deep");
  });

  it("renders nothing for short heading lists", () => {
    expect(renderToStaticMarkup(<TableOfContents headings={headings.slice(0, 2)} />)).toBe("");
  });

  it("nests headings that skip levels under the nearest shallower one", () => {
    expect(tocEntries([{ depth: 2, id: "x", text: "X" }, { depth: 2, id: "y", text: "Y" }]).map((h) => h.id)).toEqual(["x", "y"]);
    const html = renderToStaticMarkup(
      <TableOfContents
        headings={[
          { depth: 3, id: "c", text: "C" },
          { depth: 2, id: "a", text: "A" },
          { depth: 3, id: "b", text: "B" },
          { depth: 2, id: "d", text: "D" },
        ]}
      />,
    );
    expect(html).toContain('<ol><li><a href="#c">C</a></li><li><a href="#a">A</a><ol><li><a href="#b">B</a></li></ol></li><li><a href="#d">D</a></li></ol>');
  });

  it("is shown only for long documents with several sections", () => {
    expect(shouldShowTableOfContents({ html: "x".repeat(10_000), headings })).toBe(true);
    expect(shouldShowTableOfContents({ html: "x".repeat(500), headings })).toBe(false);
    expect(shouldShowTableOfContents({ html: "x".repeat(10_000), headings: headings.slice(0, 2) })).toBe(false);
  });
});

describe("HeadingWithAnchor", () => {
  it("matches the markup renderMarkdown produces", async () => {
    const rendered = await renderMarkdown("## Use cases");
    const component = renderToStaticMarkup(
      <HeadingWithAnchor level={2} id="md-use-cases">
        Use cases
      </HeadingWithAnchor>,
    );
    expect(component).toBe(rendered.html);
  });
});

import { expect } from "vitest";
import { auditHtml } from "#tests/support/audit-html.ts";
import type { RenderedMarkdown, renderMarkdown } from "#app/markdown/render-markdown.server.ts";

/** A rendered card is safe and every heading has a unique id and a permalink. */
export function expectAnchoredHeadings(result: RenderedMarkdown): void {
  expect(result.error).toBeNull();
  expect(auditHtml(result.html, { idPrefix: "md-" })).toEqual([]);
  // Every <hN> in the output except the footnotes' hidden label is a listed heading.
  const headingTags = result.html.match(/<h[1-6][\s>]/g) ?? [];
  const hiddenLabels = result.html.match(/<h2 class="sr-only"/g) ?? [];
  expect(result.headings.length).toBe(headingTags.length - hiddenLabels.length);
  const ids = new Set<string>();
  for (const heading of result.headings) {
    expect(heading.id).toMatch(/^md-./);
    expect(ids.has(heading.id)).toBe(false);
    ids.add(heading.id);
    expect(result.html).toContain(`id="${heading.id}"`);
    expect(result.html).toContain(`<a class="heading-anchor" href="#${heading.id}"`);
  }
}

/** Renders a raw card (front matter included) as the model page does and checks it. */
export async function expectCardRenders(file: string, md: string, render: typeof renderMarkdown): Promise<void> {
  const result = await render(md, {
    resolveRelativeUrl: (p, kind) => `/models/${file}/${kind === "image" ? "resolve" : "blob"}/main/${p}`,
    cacheKey: file,
  });
  expectAnchoredHeadings(result);
  expect(result.headings.length).toBeGreaterThan(0);
  if (md.startsWith("---")) {
    expect(result.frontMatter.error).toBeNull();
    expect(result.frontMatter.data).not.toBeNull();
    expect(result.html).not.toMatch(/^<hr>/);
  }
}

/** Renders card bodies (no front matter) and returns how many had headings. */
export async function expectBodiesRender(bodies: Array<{ modelId: string; card_body: string }>, render: typeof renderMarkdown): Promise<number> {
  let withHeadings = 0;
  for (const card of bodies) {
    const result = await render(card.card_body, { stripFrontMatter: false });
    try {
      expectAnchoredHeadings(result);
    } catch (error) {
      throw new Error(`${card.modelId}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (result.headings.length > 0) withHeadings++;
  }
  return withHeadings;
}

import { describe, expect, it } from "vitest";
import { auditHtml } from "#tests/support/audit-html.ts";
import { DEFAULT_ID_PREFIX, renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { xssCorpus } from "#tests/support/xss-corpus.ts";

const resolveRelativeUrl = (path: string, kind: "link" | "image") =>
  `/models/acme/model/${kind === "image" ? "resolve" : "blob"}/main/${path.replace(/^\.?\//, "")}`;

/** Start tags as serialised, with quoted attribute values kept whole. */
function startTags(html: string): string[] {
  return html.match(/<[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g) ?? [];
}

describe("XSS corpus: rendered HTML", () => {
  it("covers every vector family the issue names", () => {
    const families = new Set(xssCorpus.map((c) => c.family));
    for (const family of ["script", "event-handler", "javascript-url", "data-url", "svg", "frame", "object-embed", "meta-base-link", "form", "css", "markdown", "math", "comment", "nesting", "mxss", "clobbering"] as const) {
      expect(families.has(family), family).toBe(true);
    }
    expect(new Set(xssCorpus.map((c) => c.name)).size).toBe(xssCorpus.length);
  });

  it.each(xssCorpus.map((c) => [c.family, c.name, c.markdown] as const))("%s: %s", async (_family, _name, markdown) => {
    const withResolver = await renderMarkdown(markdown, { resolveRelativeUrl, cacheKey: "acme/model@main" });
    const plain = await renderMarkdown(markdown);
    for (const result of [withResolver, plain]) {
      expect(result.error).toBeNull();
      expect(auditHtml(result.html, { idPrefix: DEFAULT_ID_PREFIX })).toEqual([]);
      // Textual backstops on the serialised tags, independent of any HTML parser.
      const tags = startTags(result.html);
      const names = tags.map((t) => /^<([a-zA-Z][^\s/>]*)/.exec(t)?.[1]?.toLowerCase() ?? "");
      for (const banned of ["script", "iframe", "object", "embed", "form", "style", "meta", "base", "link", "textarea", "select", "button"]) {
        expect(names).not.toContain(banned);
      }
      for (const tag of tags) {
        const attributes = tag.replace(/=\s*(?:"[^"]*"|'[^']*')/g, "=");
        expect(attributes).not.toMatch(/\son[a-z]+\s*=/i);
        expect(tag).not.toMatch(/\s(?:href|src|srcset|poster|action|formaction|data)\s*=\s*"\s*(?:javascript|vbscript|data):/i);
        expect(tag).not.toMatch(/\s(?:href|src|srcset|poster|style)\s*=\s*"[^"]*leak\.invalid/i);
      }
    }
  });

  it("survives the whole corpus as one card", async () => {
    const all = xssCorpus.map((c) => c.markdown).join("\n\n");
    const result = await renderMarkdown(all, { resolveRelativeUrl, cacheKey: "acme/model@main" });
    expect(result.error).toBeNull();
    expect(auditHtml(result.html, { idPrefix: DEFAULT_ID_PREFIX })).toEqual([]);
  });
});

describe("auditHtml catches what it is meant to catch", () => {
  // Guards against an audit that silently passes everything.
  it.each([
    ['<img src="x" onerror="alert(1)">', "event handler"],
    ['<a href=" javascript:alert(1)">x</a>', "unsafe URL"],
    ["<script>alert(1)</script>", "not allowed"],
    ['<div style="position:fixed">x</div>', "positions outside"],
    ['<div id="root">x</div>', "lacks the prefix"],
    ['<input type="text">', "disabled checkbox"],
    ['<a href="https://x" target="_blank">x</a>', "without rel"],
    ['<img srcset="javascript:alert(1) 1x">', "srcset"],
  ])("%s", (html, expected) => {
    expect(auditHtml(html, { idPrefix: DEFAULT_ID_PREFIX }).join("\n")).toContain(expected);
  });
});

import { describe, expect, it } from "vitest";
import { auditHtml } from "#tests/support/audit-html.ts";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";

/** Text content of an HTML fragment (tags removed, the entities shiki and hast emit decoded). */
function textOf(html: string): string {
  const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', amp: "&", apos: "'" };
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(lt|gt|quot|amp|apos));/gi, (_, hex?: string, dec?: string, name?: string) =>
      hex !== undefined
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : dec !== undefined
          ? String.fromCodePoint(Number(dec))
          : (named[name ?? ""] ?? ""),
    );
}

describe("renderMarkdown: GitHub-flavoured markdown", () => {
  it("removes YAML front matter and returns it as metadata", async () => {
    const result = await renderMarkdown("---\nlicense: apache-2.0\ntags: [a, b]\n---\n\n# Hello\n");
    expect(result.frontMatter).toEqual({ data: { license: "apache-2.0", tags: ["a", "b"] }, error: null });
    expect(result.html).not.toContain("license");
    expect(result.html).toContain(">Hello</h1>");
  });

  it("reports bad front matter without rendering it", async () => {
    const result = await renderMarkdown("---\nkey: [unclosed\n---\nBody text\n");
    expect(result.frontMatter.data).toBeNull();
    expect(result.frontMatter.error).toMatch(/Invalid YAML/);
    expect(result.html).toBe("<p>Body text</p>");
  });

  it("renders tables with alignment", async () => {
    const { html } = await renderMarkdown("| a | b |\n|:--|--:|\n| 1 | 2 |\n");
    expect(html).toContain("<table>");
    expect(html).toContain('<th align="left">a</th>');
    expect(html).toContain('<td align="right">2</td>');
  });

  it("renders task lists as disabled checkboxes", async () => {
    const { html } = await renderMarkdown("- [x] done\n- [ ] todo\n");
    expect(html).toContain('<ul class="contains-task-list">');
    expect(html).toContain('<input type="checkbox" checked disabled> done');
    expect(html).toContain('<input type="checkbox" disabled> todo');
  });

  it("renders strikethrough and autolinks with safe rel", async () => {
    const { html } = await renderMarkdown("~~gone~~ see https://example.com and www.example.org");
    expect(html).toContain("<del>gone</del>");
    expect(html).toContain('<a href="https://example.com" rel="nofollow ugc noopener noreferrer">https://example.com</a>');
    expect(html).toContain('<a href="http://www.example.org" rel="nofollow ugc noopener noreferrer">');
  });

  it("renders footnotes with working, prefixed links", async () => {
    const { html, headings } = await renderMarkdown("Claim[^src].\n\n[^src]: The source.\n");
    expect(html).toContain('<a href="#md-fn-src" id="md-fnref-src" data-footnote-ref=""');
    expect(html).toContain('<li id="md-fn-src">');
    expect(html).toContain('href="#md-fnref-src"');
    expect(html).toContain('aria-describedby="md-footnote-label"');
    expect(html).toContain('id="md-footnote-label"');
    // The visually hidden "Footnotes" label is not a section of the document.
    expect(headings).toEqual([]);
  });

  it("keeps safe raw HTML that model cards use", async () => {
    const { html } = await renderMarkdown(
      '<div align="center"><img src="https://x.test/logo.png" width="300" alt="logo"></div>\n\n' +
        "<details><summary>More</summary>\n\nHidden **text**\n\n</details>\n\n" +
        '<p style="text-align: center; position: fixed">centred</p>\n\n' +
        '<video width="100%" controls autoplay><source src="https://x.test/v.mp4" type="video/mp4"></video>',
    );
    expect(html).toContain('<div align="center"><img src="https://x.test/logo.png" width="300" alt="logo"');
    expect(html).toContain("<details><summary>More</summary>");
    expect(html).toContain("<strong>text</strong>");
    expect(html).toContain('<p style="text-align:center">centred</p>');
    expect(html).toContain('<video width="100%" controls preload="none"><source src="https://x.test/v.mp4" type="video/mp4"></video>');
  });

  it("renders math with KaTeX on the server and flags it", async () => {
    const inline = await renderMarkdown("Energy $E = mc^2$ here.");
    expect(inline.hasMath).toBe(true);
    expect(inline.html).toContain('<span class="katex">');
    expect(inline.html).toContain("<annotation encoding=\"application/x-tex\">E = mc^2</annotation>");
    const display = await renderMarkdown("$$\n\\sum_{i=1}^n i\n$$");
    expect(display.html).toContain('<span class="katex-display">');
    const none = await renderMarkdown("No math, just $5.");
    expect(none.hasMath).toBe(false);
    expect(none.html).not.toContain("katex");
  });

  it("shows a KaTeX error instead of failing on bad math", async () => {
    const { html, error } = await renderMarkdown("$\\frac{1}{$");
    expect(error).toBeNull();
    expect(html).toContain("katex-error");
  });
});

describe("renderMarkdown: headings", () => {
  it("gives every heading a unique prefixed slug id and an accessible anchor", async () => {
    const md = "# Model Card\n\n## Uses\n\n### Direct Use\n\n## Uses\n\n## Café & Crème!\n\n## 日本語 の見出し\n";
    const { html, headings } = await renderMarkdown(md);
    expect(headings).toEqual([
      { depth: 1, id: "md-model-card", text: "Model Card" },
      { depth: 2, id: "md-uses", text: "Uses" },
      { depth: 3, id: "md-direct-use", text: "Direct Use" },
      { depth: 2, id: "md-uses-1", text: "Uses" },
      { depth: 2, id: "md-café--crème", text: "Café & Crème!" },
      { depth: 2, id: "md-日本語-の見出し", text: "日本語 の見出し" },
    ]);
    expect(html).toContain(
      '<div class="heading-wrapper heading-wrapper-h2"><h2 id="md-uses">Uses</h2><a class="heading-anchor" href="#md-uses" aria-label="Link to this section: Uses">#</a></div>',
    );
    expect(new Set(headings.map((h) => h.id)).size).toBe(headings.length);
  });

  it("never reuses an id already present in raw HTML or footnotes", async () => {
    const md = '<a name="intro"></a>\n\n## Intro\n\n## fn-1\n\nText[^1]\n\n[^1]: note';
    const { html, headings } = await renderMarkdown(md);
    expect(html).toContain('<a name="md-intro"></a>');
    expect(headings.map((h) => h.id)).toEqual(["md-intro", "md-fn-1-1"]);
    expect(html).toContain('<li id="md-fn-1">');
  });

  it("rewrites in-card #fragment links to the prefixed ids", async () => {
    const md = "- [Details](#model-details)\n- [Missing](#nowhere)\n\n## Model Details\n";
    const { html } = await renderMarkdown(md);
    expect(html).toContain('<a href="#md-model-details">Details</a>');
    expect(html).toContain('<a href="#nowhere">Missing</a>');
  });

  it("honours a custom idPrefix and rejects an unsafe one", async () => {
    const { headings } = await renderMarkdown("## Overview", { idPrefix: "task-" });
    expect(headings[0]?.id).toBe("task-overview");
    await expect(renderMarkdown("x", { idPrefix: '"><x' })).rejects.toThrow(TypeError);
  });

  it("does not nest the anchor inside a link around the heading", async () => {
    const { html, headings } = await renderMarkdown('<div><a href="https://x.test"><h2>Linked</h2></a></div>');
    expect(headings).toEqual([{ depth: 2, id: "md-linked", text: "Linked" }]);
    expect(html).toContain('<h2 id="md-linked">Linked</h2>');
    expect(html).not.toContain("heading-anchor");
  });
});

describe("renderMarkdown: relative URLs", () => {
  const resolveRelativeUrl = (path: string, kind: "link" | "image") =>
    path === "drop-me" ? null : `/models/org/m/${kind === "image" ? "resolve" : "blob"}/main/${path.replace(/^\.\//, "")}`;

  it("resolves links and images through the resolver, leaving absolute URLs alone", async () => {
    const md =
      "[cfg](./config.json) ![arch](images/arch.png) [abs](https://x.test/a) [mail](mailto:a@x.test) [frag](#x) [gone](drop-me)\n\n" +
      '<img src="assets/a.png" srcset="assets/a.png 1x, assets/a@2x.png 2x"> <a href="//cdn.test/x">cdn</a>';
    const { html } = await renderMarkdown(md, { resolveRelativeUrl, cacheKey: "org/m@main" });
    expect(html).toContain('<a href="/models/org/m/blob/main/config.json">cfg</a>');
    expect(html).toContain('<img src="/models/org/m/resolve/main/images/arch.png" alt="arch"');
    expect(html).toContain('<a href="https://x.test/a" rel="nofollow ugc noopener noreferrer">abs</a>');
    expect(html).toContain('<a href="mailto:a@x.test">mail</a>');
    expect(html).toContain('<a href="#x">frag</a>');
    expect(html).toContain("<a>gone</a>");
    expect(html).toContain(
      'srcset="/models/org/m/resolve/main/assets/a.png 1x, /models/org/m/resolve/main/assets/a@2x.png 2x"',
    );
    expect(html).toContain('<a href="//cdn.test/x" rel="nofollow ugc noopener noreferrer">cdn</a>');
  });

  it("does not trust a resolver that returns a javascript: URL", async () => {
    const { html } = await renderMarkdown("[x](evil)", { resolveRelativeUrl: () => "javascript:alert(1)", cacheKey: "bad" });
    expect(html).toBe("<p><a>x</a></p>");
  });

  it("keys the cache on cacheKey so two models with the same card differ", async () => {
    const md = "![a](a.png)";
    const one = await renderMarkdown(md, { resolveRelativeUrl: (p) => `/one/${p}`, cacheKey: "one" });
    const two = await renderMarkdown(md, { resolveRelativeUrl: (p) => `/two/${p}`, cacheKey: "two" });
    expect(one.html).toContain('src="/one/a.png"');
    expect(two.html).toContain('src="/two/a.png"');
    // Without a cacheKey a resolver's result is not cached at all.
    const three = await renderMarkdown(md, { resolveRelativeUrl: (p) => `/three/${p}` });
    const four = await renderMarkdown(md, { resolveRelativeUrl: (p) => `/four/${p}` });
    expect(three.html).toContain('src="/three/a.png"');
    expect(four.html).toContain('src="/four/a.png"');
  });
});

describe("renderMarkdown: code", () => {
  it("highlights fenced code with dual themes and keeps the text exact", async () => {
    const code = 'def f(x):\n    if x:\n\t\treturn "<b>&amp;</b>"  \n\n    return None';
    const { html } = await renderMarkdown("```python\n" + code + "\n```\n");
    expect(html).toContain('<pre class="shiki shiki-themes github-light-high-contrast github-dark-default"');
    expect(html).toContain('data-language="python"');
    expect(html).toContain("--shiki-dark:");
    const inner = /<code>([\s\S]*)<\/code>/.exec(html)?.[1] ?? "";
    expect(textOf(inner)).toBe(code);
  });

  it("falls back to escaped plain text for unknown languages", async () => {
    const { html } = await renderMarkdown("```klingon\n<tag> & stuff\n```");
    expect(html).toContain('data-language="klingon"');
    expect(html).toContain("&#x3C;tag> &#x26; stuff");
    expect(html).not.toContain("--shiki-light:#D73A49");
  });

  it("leaves inline code alone", async () => {
    const { html } = await renderMarkdown("Use `pip install x` now.");
    expect(html).toBe("<p>Use <code>pip install x</code> now.</p>");
  });
});

describe("renderMarkdown: robustness and caching", () => {
  it("returns the escaped source instead of throwing on pathological nesting", async () => {
    const { html, error } = await renderMarkdown("<div>".repeat(20_000) + "<img src=x onerror=alert(1)>");
    expect(error).toMatch(/Could not render markdown/);
    expect(html.startsWith('<pre class="markdown-fallback">&#60;div&#62;')).toBe(true);
    expect(auditHtml(html, { idPrefix: "md-" })).toEqual([]);
  });

  it("returns the cached object for the same source and options", async () => {
    const first = await renderMarkdown("# Cached");
    const second = await renderMarkdown("# Cached");
    expect(second).toBe(first);
    const other = await renderMarkdown("# Cached", { idPrefix: "x-" });
    expect(other).not.toBe(first);
    expect(other.headings[0]?.id).toBe("x-cached");
  });

  it("shares one render between concurrent requests for the same card", async () => {
    const [a, b] = await Promise.all([renderMarkdown("# Concurrent"), renderMarkdown("# Concurrent")]);
    expect(b).toBe(a);
  });
});

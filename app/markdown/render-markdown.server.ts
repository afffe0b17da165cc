/**
 * Markdown -> safe HTML for model cards (hostile) and task guides.
 *
 * Order matters for safety:
 *   parse (GFM, math) -> hast with raw HTML parsed (rehype-raw) -> SANITISE (strict schema)
 *   -> filter inline styles -> heading ids/anchors and URL rewriting on the sanitised tree
 *   -> KaTeX and shiki insert *trusted* nodes last, so their classes and styles never have to be
 *      allowed by the sanitiser.
 * The result is cached by a hash of the source and the options that change the output.
 */
import { createHash } from "node:crypto";
import type { Element, ElementContent, Root, RootContent } from "hast";
import { toString } from "hast-util-to-string";
import rehypeKatex from "rehype-katex";
import rehypeRaw from "rehype-raw";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { Lru, stringBytes } from "#app/utils/lru.ts";
import { splitFrontMatter } from "#app/markdown/front-matter.ts";
import { createSanitizeSchema, filterStyle } from "#app/markdown/sanitize-schema.ts";
import { Slugger } from "#app/markdown/slugger.ts";
import { highlightToHast } from "#app/utils/highlight.server.ts";

export type UrlKind = "link" | "image";

export type RenderMarkdownOptions = {
  /**
   * Maps a relative URL found in the card (e.g. "images/arch.png", "./config.json", "/LICENSE")
   * to the URL to use, or null to drop it. Never called for absolute URLs, protocol-relative
   * URLs or #fragments. Its return value is checked again: only http(s), mailto, relative and
   * #fragment survive.
   */
  resolveRelativeUrl?: (path: string, kind: UrlKind) => string | null;
  /**
   * Identifies `resolveRelativeUrl` for caching (for example `${repoId}@${revision}`): two models
   * with identical cards resolve relative URLs differently. With a resolver but no cacheKey,
   * results are not cached.
   */
  cacheKey?: string;
  /**
   * Prefix for every id in the output (heading slugs, footnotes, ids and names from raw HTML),
   * so card content can never clobber ids of the surrounding page. Default "md-".
   */
  idPrefix?: string;
  /** Remove YAML front matter before rendering (default true). */
  stripFrontMatter?: boolean;
};

export type MarkdownHeading = { depth: number; id: string; text: string };

export type RenderedMarkdown = {
  /** Sanitised HTML, safe to inject with dangerouslySetInnerHTML. */
  html: string;
  /** Every heading in document order (including ones inside <details>), for a table of contents. */
  headings: MarkdownHeading[];
  /** True when KaTeX output is present: the page must then load katex.min.css (see MarkdownContent). */
  hasMath: boolean;
  /** Front matter that was split off (null data when absent or invalid). */
  frontMatter: { data: Record<string, unknown> | null; error: string | null };
  /** Set when rendering failed and the output is the escaped source in a <pre> instead. */
  error: string | null;
};

export const DEFAULT_ID_PREFIX = "md-";
/** Larger sources are cut (with a note) so one card cannot monopolise the server. */
export const MAX_SOURCE_CHARS = 1_000_000;
/** Code blocks longer than this are shown unhighlighted: tokenising them costs too much. */
const MAX_HIGHLIGHT_CHARS = 100_000;

const EXTERNAL_REL = ["nofollow", "ugc", "noopener", "noreferrer"];

const KATEX_OPTIONS = {
  // trust:false disables \href, \url, \includegraphics and \html* (the KaTeX XSS surface).
  trust: false,
  strict: "ignore" as const,
  // User sizes (\rule, \kern, \hspace) are capped so formulas cannot cover the page.
  maxSize: 20,
  maxExpand: 1000,
  output: "htmlAndMathml" as const,
};

const processors = new Map<string, ReturnType<typeof createProcessor>>();

function createProcessor(idPrefix: string) {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkMath)
    // Footnote ids are left unprefixed here because the sanitiser prefixes every id.
    .use(remarkRehype, { allowDangerousHtml: true, clobberPrefix: "" })
    .use(rehypeRaw)
    .use(rehypeSanitize, createSanitizeSchema(idPrefix))
    .use(rehypeStringify)
    .freeze();
}

function getProcessor(idPrefix: string) {
  let processor = processors.get(idPrefix);
  if (!processor) {
    processor = createProcessor(idPrefix);
    processors.set(idPrefix, processor);
  }
  return processor;
}

const katexProcessor = unified().use(rehypeKatex, KATEX_OPTIONS).freeze();

const cache = new Lru<RenderedMarkdown>({
  maxBytes: 64 * 1024 * 1024,
  sizeOf: (value) =>
    stringBytes(value.html) +
    value.headings.reduce((sum, h) => sum + stringBytes(h.id) + stringBytes(h.text) + 32, 0) +
    JSON.stringify(value.frontMatter).length * 2,
});

const inflight = new Map<string, Promise<RenderedMarkdown>>();

export async function renderMarkdown(
  md: string,
  opts: RenderMarkdownOptions = {},
): Promise<RenderedMarkdown> {
  const idPrefix = opts.idPrefix ?? DEFAULT_ID_PREFIX;
  if (!/^(?:[A-Za-z][\w-]*)?$/.test(idPrefix)) {
    throw new TypeError(`idPrefix must be empty or start with a letter and use [A-Za-z0-9_-]: ${idPrefix}`);
  }
  const cacheable = opts.resolveRelativeUrl === undefined || opts.cacheKey !== undefined;
  const key = cacheable
    ? createHash("sha256")
        .update(JSON.stringify([idPrefix, opts.cacheKey ?? null, opts.stripFrontMatter ?? true]))
        .update("\u0000")
        .update(md)
        .digest("base64url")
    : null;
  if (key === null) return renderUncached(md, idPrefix, opts);
  const hit = cache.get(key);
  if (hit) return hit;
  // Concurrent requests for the same uncached card share one render.
  const pending = inflight.get(key);
  if (pending) return pending;
  const promise = renderUncached(md, idPrefix, opts).then(
    (result) => {
      cache.set(key, result);
      inflight.delete(key);
      return result;
    },
    (error: unknown) => {
      inflight.delete(key);
      throw error;
    },
  );
  inflight.set(key, promise);
  return promise;
}

async function renderUncached(
  md: string,
  idPrefix: string,
  opts: RenderMarkdownOptions,
): Promise<RenderedMarkdown> {
  const split =
    opts.stripFrontMatter === false
      ? { data: null, body: md, error: null }
      : splitFrontMatter(md);
  const frontMatter = { data: split.data, error: split.error };
  let body = split.body;
  const truncated = body.length > MAX_SOURCE_CHARS;
  if (truncated) body = body.slice(0, MAX_SOURCE_CHARS);

  try {
    const processor = getProcessor(idPrefix);
    const tree = await processor.run(processor.parse(body));

    filterStyles(tree);
    removeStrayInputs(tree);
    const headings = addHeadingAnchors(tree, idPrefix);
    rewriteUrls(tree, idPrefix, opts.resolveRelativeUrl);
    const hasMath = containsMath(tree);
    if (hasMath) {
      await katexProcessor.run(tree);
      clampKatexLengths(tree);
    }
    highlightCodeBlocks(tree);

    let html = processor.stringify(tree);
    if (truncated) {
      html += '<p class="markdown-truncated"><em>This document is too long and was cut short.</em></p>';
    }
    return { html, headings, hasMath, frontMatter, error: null };
  } catch (error) {
    // Pathological input (e.g. nesting deep enough to overflow the stack) must not take the
    // page down; showing the escaped source is always safe.
    const message = error instanceof Error ? error.message : String(error);
    return {
      html: `<pre class="markdown-fallback">${escapeHtml(body)}</pre>`,
      headings: [],
      hasMath: false,
      frontMatter,
      error: `Could not render markdown: ${message}`,
    };
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function isElement(node: RootContent | Root | ElementContent): node is Element {
  return node.type === "element";
}

function classList(node: Element): string[] {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

/** Depth-first walk over elements, parents before children. */
function walk(node: Root | Element, visit: (element: Element, parent: Root | Element) => void): void {
  for (const child of node.children) {
    if (!isElement(child)) continue;
    visit(child, node);
    walk(child, visit);
  }
}

function filterStyles(tree: Root): void {
  walk(tree, (element) => {
    const style = element.properties.style;
    if (style === undefined) return;
    const kept = typeof style === "string" ? filterStyle(style) : null;
    if (kept === null) delete element.properties.style;
    else element.properties.style = kept;
  });
}

/**
 * The schema has to allow <input> for GFM task lists; any other input (raw HTML forms, hidden
 * fields, password boxes turned into checkboxes by the schema's `required` rule) is removed.
 */
function removeStrayInputs(tree: Root): void {
  const visit = (parent: Root | Element, taskItem: boolean): void => {
    parent.children = parent.children.filter((child) => {
      if (!isElement(child)) return true;
      if (child.tagName === "input") {
        delete child.properties.name;
        return taskItem;
      }
      const isTaskItem = child.tagName === "li" && classList(child).includes("task-list-item");
      // Loose task lists put the checkbox inside a <p>.
      visit(child, isTaskItem || (taskItem && child.tagName === "p"));
      return true;
    });
  };
  visit(tree, false);
}

/**
 * KaTeX caps positive user sizes with maxSize but not negative ones (\kern{-1000em}); clamping
 * every em length in its output keeps formulas from being dragged over the rest of the card.
 */
function clampKatexLengths(tree: Root): void {
  const limit = KATEX_OPTIONS.maxSize;
  const clamp = (style: string): string =>
    style.replace(/(-?)(\d+(?:\.\d+)?)em/g, (whole, sign: string, number: string) =>
      Number(number) > limit ? `${sign}${limit}em` : whole,
    );
  const visit = (parent: Root | Element, inside: boolean): void => {
    for (const child of parent.children) {
      if (!isElement(child)) continue;
      const inKatex = inside || classList(child).some((c) => c === "katex" || c === "katex-display");
      const style = child.properties.style;
      if (inKatex && typeof style === "string") child.properties.style = clamp(style);
      visit(child, inKatex);
    }
  };
  visit(tree, false);
}

const HEADING = /^h([1-6])$/;

function collectIds(tree: Root): Set<string> {
  const ids = new Set<string>();
  walk(tree, (element) => {
    const id = element.properties.id;
    if (typeof id === "string" && id !== "") ids.add(id);
  });
  return ids;
}

/**
 * Gives every heading a unique id and wraps it with a sibling permalink, GitHub-style:
 * <div class="heading-wrapper"><hN id>…</hN><a class="heading-anchor" …>#</a></div>.
 * The link sits outside the heading so the heading's accessible name stays its own text.
 */
function addHeadingAnchors(tree: Root, idPrefix: string): MarkdownHeading[] {
  const headings: MarkdownHeading[] = [];
  const slugger = new Slugger(collectIds(tree));

  const visit = (parent: Root | Element, insideLink: boolean): void => {
    for (let index = 0; index < parent.children.length; index++) {
      const child = parent.children[index];
      if (!child || !isElement(child)) continue;
      const match = HEADING.exec(child.tagName);
      // The footnotes section's visually hidden label is not a section of the card.
      if (!match || classList(child).includes("sr-only")) {
        visit(child, insideLink || child.tagName === "a");
        continue;
      }
      const depth = Number(match[1]);
      const text = toString(child).replace(/\s+/g, " ").trim();
      const existing = child.properties.id;
      const id =
        typeof existing === "string" && existing !== ""
          ? existing
          : idPrefix + slugger.slug(text, idPrefix);
      child.properties.id = id;
      headings.push({ depth, id, text });
      // A link inside a link is invalid HTML and browsers would restructure it.
      if (insideLink) continue;
      const wrapper: Element = {
        type: "element",
        tagName: "div",
        properties: { className: ["heading-wrapper", `heading-wrapper-h${depth}`] },
        children: [
          child,
          {
            type: "element",
            tagName: "a",
            properties: {
              className: ["heading-anchor"],
              href: `#${id}`,
              ariaLabel: `Link to this section: ${text}`,
            },
            children: [{ type: "text", value: "#" }],
          },
        ],
      };
      parent.children[index] = wrapper;
    }
  };
  visit(tree, false);
  return headings;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

type UrlClass = "fragment" | "absolute" | "relative" | "unsafe";

function classifyUrl(url: string, allowMailto: boolean): UrlClass {
  if (url.startsWith("#")) return "fragment";
  // Browsers treat "\" like "/" in http(s) URLs, so "/\host" and "\\host" leave the site.
  if (/^[/\\]{2}/.test(url)) return "absolute";
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return "relative";
  if (scheme === "http" || scheme === "https") return "absolute";
  if (scheme === "mailto" && allowMailto) return "absolute";
  return "unsafe";
}

function rewriteUrls(
  tree: Root,
  idPrefix: string,
  resolve: RenderMarkdownOptions["resolveRelativeUrl"],
): void {
  const ids = collectIds(tree);

  const fixUrl = (raw: string, kind: UrlKind): string | null => {
    // Browsers strip these before parsing; doing the same keeps classification honest.
    const url = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
    const kindOfUrl = classifyUrl(url, kind === "link");
    if (kindOfUrl === "unsafe") return null;
    if (kindOfUrl === "fragment") return kind === "link" ? rewriteFragment(url, ids, idPrefix) : null;
    if (kindOfUrl === "absolute") return url;
    if (!resolve) return url;
    const resolved = resolve(url, kind);
    if (resolved === null) return null;
    // The resolver is trusted code, but its output is still held to the same rules.
    const resolvedKind = classifyUrl(resolved.trim(), kind === "link");
    return resolvedKind === "unsafe" ? null : resolved.trim();
  };

  walk(tree, (element) => {
    const props = element.properties;
    switch (element.tagName) {
      case "a": {
        if (typeof props.href === "string") {
          const href = fixUrl(props.href, "link");
          if (href === null) delete props.href;
          else props.href = href;
        }
        const href = typeof props.href === "string" ? props.href : "";
        const external = href !== "" && classifyUrl(href, true) === "absolute" && !href.startsWith("mailto:");
        if (external || props.target === "_blank") props.rel = [...EXTERNAL_REL];
        break;
      }
      case "img":
      case "source":
      case "video":
      case "audio": {
        for (const attr of ["src", "poster"] as const) {
          const value = props[attr];
          if (typeof value !== "string") continue;
          const fixed = fixUrl(value, "image");
          if (fixed === null) delete props[attr];
          else props[attr] = fixed;
        }
        if (typeof props.srcSet === "string") {
          const srcSet = fixSrcSet(props.srcSet, (u) => fixUrl(u, "image"));
          if (srcSet === null) delete props.srcSet;
          else props.srcSet = srcSet;
        }
        if (element.tagName === "img") {
          props.loading = "lazy";
          props.decoding = "async";
          props.referrerPolicy = "no-referrer";
        } else if (element.tagName !== "source") {
          // Media never plays or downloads by itself and always shows its controls.
          props.controls = true;
          props.preload = "none";
        }
        break;
      }
      default:
        break;
    }
    for (const attr of ["cite"] as const) {
      const value = props[attr];
      if (typeof value !== "string") continue;
      const fixed = fixUrl(value, "link");
      if (fixed === null) delete props[attr];
      else props[attr] = fixed;
    }
  });
}

/**
 * In-card links like "#model-details" were written against the Hub's unprefixed ids; point them
 * at the prefixed id when one exists.
 */
function rewriteFragment(url: string, ids: ReadonlySet<string>, idPrefix: string): string {
  let target = url.slice(1);
  try {
    target = decodeURIComponent(target);
  } catch {
    // A malformed escape stays as written.
  }
  if (target === "" || ids.has(target)) return url;
  const candidates = [idPrefix + target, idPrefix + target.toLowerCase()];
  for (const candidate of candidates) if (ids.has(candidate)) return `#${candidate}`;
  return url;
}

function fixSrcSet(srcSet: string, fix: (url: string) => string | null): string | null {
  const parts: string[] = [];
  for (const candidate of srcSet.split(",")) {
    const [url, ...descriptors] = candidate.trim().split(/\s+/);
    if (!url) continue;
    const fixed = fix(url);
    // A resolved URL containing "," or whitespace would change how the list is split.
    if (fixed === null || /[\s,<>"']/.test(fixed)) continue;
    parts.push([fixed, ...descriptors.filter((d) => /^\d+(?:\.\d+)?[wx]$/.test(d))].join(" "));
  }
  return parts.length > 0 ? parts.join(", ") : null;
}

function isMathCode(element: Element): boolean {
  const classes = classList(element);
  return (
    classes.includes("language-math") || classes.includes("math-inline") || classes.includes("math-display")
  );
}

function containsMath(tree: Root): boolean {
  let found = false;
  walk(tree, (element) => {
    if (!found && isMathCode(element)) found = true;
  });
  return found;
}

/** Replaces sanitised <pre><code class="language-x"> blocks with shiki's trusted markup. */
function highlightCodeBlocks(tree: Root): void {
  const visit = (parent: Root | Element): void => {
    for (let index = 0; index < parent.children.length; index++) {
      const child = parent.children[index];
      if (!child || !isElement(child)) continue;
      if (child.tagName !== "pre") {
        visit(child);
        continue;
      }
      const elements = child.children.filter(isElement);
      const code = elements.length === 1 && elements[0]?.tagName === "code" ? elements[0] : null;
      if (!code || isMathCode(code)) continue;
      const language = classList(code)
        .find((name) => name.startsWith("language-"))
        ?.slice("language-".length);
      // Fenced code always ends with the newline markdown adds after the last line.
      const text = toString(code).replace(/\n$/, "");
      const highlighted = highlightToHast(text, text.length > MAX_HIGHLIGHT_CHARS ? "text" : language);
      const pre = highlighted.children.find(isElement);
      if (!pre) continue;
      if (language) pre.properties.dataLanguage = language.slice(0, 40);
      parent.children[index] = pre;
    }
  };
  visit(tree);
}

/**
 * Independent safety audit of rendered HTML, used by the tests. It re-parses the output the way
 * a browser would (parse5, through rehype-raw) and checks the resulting tree against rules that
 * are stated separately from the sanitiser schema, so a mistake in one is caught by the other.
 */
import type { Element, Root } from "hast";
import rehypeRaw from "rehype-raw";
import { unified } from "unified";

const ALLOWED_TAGS = new Set([
  "a", "abbr", "audio", "b", "blockquote", "br", "caption", "center", "code", "col", "colgroup",
  "dd", "del", "details", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4",
  "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark", "ol", "p", "picture", "pre",
  "q", "rp", "rt", "ruby", "s", "samp", "section", "small", "source", "span", "strike", "strong",
  "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul",
  "var", "video",
]);

/** KaTeX's MathML output and the SVG it uses for radicals and stretchy arrows. */
const KATEX_TAGS = new Set([
  "math", "semantics", "annotation", "mrow", "mi", "mo", "mn", "ms", "mtext", "mspace", "msup",
  "msub", "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr",
  "mtd", "mstyle", "mpadded", "mphantom", "menclose", "mglyph", "merror", "svg", "path", "line",
]);

const URL_ATTRIBUTES = new Set(["href", "src", "poster", "cite", "action", "formAction", "data", "background", "xLinkHref"]);

const SAFE_STYLE_PROPERTIES = new Set([
  "text-align", "vertical-align", "color", "font-weight", "font-style", "text-decoration",
  "border-collapse", "white-space", "width", "max-width", "height",
]);

function parse(html: string): Root {
  const tree: Root = { type: "root", children: [{ type: "raw", value: html }] };
  return unified().use(rehypeRaw).runSync(tree);
}

function isSafeUrl(raw: string, allowMailto: boolean): boolean {
  // What a browser does before parsing: trim C0 controls and spaces, drop tabs and newlines.
  const url = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return true;
  return scheme === "http" || scheme === "https" || (allowMailto && scheme === "mailto");
}

function classes(element: Element): string[] {
  const value = element.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
}

export type AuditOptions = {
  /** Every id/name must start with this prefix (DOM clobbering). */
  idPrefix: string;
};

/** Returns human-readable violations; an empty list means the HTML passed. */
export function auditHtml(html: string, options: AuditOptions): string[] {
  const problems: string[] = [];
  const visit = (element: Element, trusted: "katex" | "shiki" | null): void => {
    const tag = element.tagName;
    const cls = classes(element);
    let zone = trusted;
    if (zone === null && tag === "span" && cls.includes("katex")) zone = "katex";
    if (zone === null && tag === "pre" && cls.includes("shiki")) zone = "shiki";

    const tagAllowed = ALLOWED_TAGS.has(tag) || (zone === "katex" && KATEX_TAGS.has(tag));
    if (!tagAllowed) problems.push(`element <${tag}> is not allowed${zone ? ` (inside ${zone})` : ""}`);

    for (const [name, value] of Object.entries(element.properties)) {
      if (/^on/i.test(name)) problems.push(`<${tag}> has event handler ${name}`);
      if (name === "srcdoc" || name === "srcDoc") problems.push(`<${tag}> has srcdoc`);
      if (name === "formAction" || name === "action") problems.push(`<${tag}> has ${name}`);
      if (name === "target" && value !== "_blank") problems.push(`<${tag}> has target=${String(value)}`);
      if (URL_ATTRIBUTES.has(name) && typeof value === "string" && !isSafeUrl(value, tag === "a")) {
        problems.push(`<${tag}> ${name} has unsafe URL ${JSON.stringify(value)}`);
      }
      if ((name === "srcSet" || name === "srcset") && typeof value === "string") {
        for (const candidate of value.split(",")) {
          const url = candidate.trim().split(/\s+/)[0] ?? "";
          if (!isSafeUrl(url, false)) problems.push(`<${tag}> srcset has unsafe URL ${JSON.stringify(url)}`);
        }
      }
      if ((name === "id" || name === "name") && typeof value === "string" && zone !== "katex") {
        if (!value.startsWith(options.idPrefix)) problems.push(`<${tag}> ${name}=${JSON.stringify(value)} lacks the prefix`);
      }
    }

    if (tag === "input") {
      if (element.properties.type !== "checkbox" || element.properties.disabled !== true) {
        problems.push("<input> that is not a disabled checkbox");
      }
    }
    if (tag === "a" && element.properties.target === "_blank") {
      const rel = element.properties.rel;
      if (!Array.isArray(rel) || !rel.includes("noopener") || !rel.includes("noreferrer")) {
        problems.push("target=_blank link without rel=noopener noreferrer");
      }
    }

    const style = element.properties.style;
    if (typeof style === "string") {
      if (/url\s*\(|expression|javascript|@import|\\|behavior|binding/i.test(style)) {
        problems.push(`<${tag}> style can fetch or run code: ${style}`);
      }
      if (/position\s*:\s*(?:fixed|sticky|absolute)/i.test(style)) {
        problems.push(`<${tag}> style positions outside the flow: ${style}`);
      }
      if (zone === null) {
        for (const declaration of style.split(";")) {
          const property = declaration.split(":")[0]?.trim().toLowerCase() ?? "";
          if (property !== "" && !SAFE_STYLE_PROPERTIES.has(property)) {
            problems.push(`<${tag}> user style property ${property} is not allowed`);
          }
        }
      }
    }

    for (const child of element.children) {
      if (child.type === "element") visit(child, zone);
    }
  };

  const tree = parse(html);
  for (const child of tree.children) {
    if (child.type === "element") visit(child, null);
  }
  return problems;
}

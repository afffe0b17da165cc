/**
 * The allow-list applied to every rendered card. Model cards are someone else's text, so this is
 * GitHub's schema (rehype-sanitize's defaultSchema) made stricter:
 * - no form controls except disabled checkboxes, no `action`/`method`/`accessKey`/`tabIndex`;
 * - links: http, https, mailto, relative and #fragment only; media: http, https and relative only;
 * - `style` survives the sanitizer only to be rewritten by `filterStyle` (a tiny allow-list of
 *   declarations that cannot move content out of the card);
 * - raw-text and foreign-content elements are dropped with their contents, so the serialised
 *   output parses back to the same tree in a browser (no mutation-XSS round trips).
 */
import { defaultSchema, type Options as Schema } from "rehype-sanitize";

const aria = ["ariaDescribedBy", "ariaLabel", "ariaLabelledBy"];

/** Attributes allowed on every element (presentational table/layout attributes cards use). */
const globalAttributes = [
  "abbr",
  "align",
  "alt",
  "border",
  "cellPadding",
  "cellSpacing",
  "clear",
  "colSpan",
  "dateTime",
  "dir",
  "headers",
  "height",
  "id",
  "lang",
  "name",
  "noWrap",
  "rowSpan",
  "scope",
  "span",
  "summary",
  "title",
  "vAlign",
  "width",
  // Rewritten by filterStyle right after sanitising; anything it cannot vouch for is removed.
  "style",
];

export function createSanitizeSchema(clobberPrefix: string): Schema {
  return {
    ...defaultSchema,
    clobberPrefix,
    clobber: ["ariaDescribedBy", "ariaLabelledBy", "id", "name"],
    tagNames: [
      ...(defaultSchema.tagNames ?? []),
      "abbr",
      "audio",
      "caption",
      "center",
      "col",
      "colgroup",
      "figcaption",
      "figure",
      "mark",
      "small",
      "u",
      "video",
    ],
    // Dropped together with their contents (everything else unknown is unwrapped).
    strip: [
      "script",
      "style",
      "template",
      "iframe",
      "frame",
      "frameset",
      "object",
      "embed",
      "applet",
      "noscript",
      "noembed",
      "noframes",
      "textarea",
      "xmp",
      "plaintext",
      "title",
      "select",
      "option",
      "optgroup",
      "datalist",
      "svg",
      "math",
      "head",
      "meta",
      "link",
      "base",
      "canvas",
      "dialog",
    ],
    ancestors: {
      ...defaultSchema.ancestors,
      caption: ["table"],
      col: ["table"],
      colgroup: ["table"],
    },
    attributes: {
      a: [
        ...aria,
        "dataFootnoteBackref",
        "dataFootnoteRef",
        ["className", "data-footnote-backref"],
        "href",
        ["target", "_blank"],
      ],
      audio: ["src", "loop", "muted"],
      blockquote: ["cite"],
      code: [["className", /^language-./, "math-inline", "math-display"]],
      del: ["cite"],
      details: ["open"],
      dl: [...aria],
      h2: [["className", "sr-only"]],
      img: [...aria, "src", "srcSet", "sizes"],
      input: [["disabled", true], ["type", "checkbox"], "checked"],
      ins: ["cite"],
      li: [["className", "task-list-item"]],
      ol: [...aria, ["className", "contains-task-list"], "start", "reversed"],
      q: ["cite"],
      section: ["dataFootnotes", ["className", "footnotes"]],
      source: ["src", "srcSet", "sizes", "media", "type"],
      summary: [...aria],
      table: [...aria],
      ul: [...aria, ["className", "contains-task-list"]],
      video: ["src", "poster", "loop", "muted", "playsInline"],
      "*": globalAttributes,
    },
    protocols: {
      cite: ["http", "https"],
      href: ["http", "https", "mailto"],
      poster: ["http", "https"],
      src: ["http", "https"],
    },
    required: {
      input: { disabled: true, type: "checkbox" },
    },
  };
}

const LENGTH = /^(?:0|\d{1,4}(?:\.\d{1,3})?(?:px|em|rem))$/;
const PERCENT = /^\d{1,3}(?:\.\d{1,3})?%$/;

const STYLE_RULES: Readonly<Record<string, (value: string) => boolean>> = {
  "text-align": (v) => /^(?:left|right|center|justify|start|end)$/.test(v),
  "vertical-align": (v) => /^(?:top|middle|bottom|baseline)$/.test(v),
  color: (v) => /^(?:#[0-9a-f]{3,8}|[a-z]{3,20})$/.test(v) && v !== "transparent",
  "font-weight": (v) => /^(?:normal|bold|[1-9]00)$/.test(v),
  "font-style": (v) => /^(?:normal|italic)$/.test(v),
  "text-decoration": (v) => /^(?:none|underline|line-through)$/.test(v),
  "border-collapse": (v) => /^(?:collapse|separate)$/.test(v),
  "white-space": (v) => /^(?:normal|nowrap|pre-wrap)$/.test(v),
  // Sizes stay inside the card: percentages are capped, lengths are clamped by max-width in CSS.
  width: (v) => (PERCENT.test(v) && Number.parseFloat(v) <= 100) || LENGTH.test(v) || v === "auto",
  "max-width": (v) => (PERCENT.test(v) && Number.parseFloat(v) <= 100) || LENGTH.test(v),
  height: (v) => LENGTH.test(v) || v === "auto",
};

/**
 * Keeps only allow-listed declarations whose values match strict patterns. Anything with
 * escapes, comments, functions (url(), expression()), `!important` or unknown properties is
 * dropped, so nothing can position, overlay or fetch. Returns null when nothing is left.
 */
export function filterStyle(style: string): string | null {
  const kept: string[] = [];
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim().toLowerCase();
    const rule = STYLE_RULES[property];
    if (rule && rule(value)) kept.push(`${property}:${value}`);
  }
  return kept.length > 0 ? kept.join(";") : null;
}

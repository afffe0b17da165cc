/**
 * The "system" theme reaches dark colours through `@media (prefers-color-scheme: dark)` rules that
 * repeat the explicit `html.dark` ones. The utilities get both from one custom variant (app.css);
 * the card styles write them twice by hand. Each hand-written dark rule must have its twin, with
 * the same declarations, or a visitor on a dark OS sees a mix of both schemes. (The browser audit
 * checks the system theme on a few pages; this checks every rule.)
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CSS = fs.readFileSync(path.join(import.meta.dirname, "markdown.css"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

/** Rules `selector { declarations }` directly inside `text`, with their declarations normalised. */
function rules(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/([^{};]+)\{([^{}]*)\}/g)) {
    const decls = m[2]!.split(";").map((d) => d.trim().replace(/\s+/g, " ")).filter(Boolean).join("; ");
    out.set(m[1]!.trim().replace(/\s+/g, " "), decls);
  }
  return out;
}

/** The body of the first block opened by `opener`, braces balanced. */
function blockAfter(text: string, opener: string): string {
  const start = text.indexOf(opener);
  if (start < 0) throw new Error(`markdown.css has no ${opener}`);
  let depth = 0;
  for (let i = text.indexOf("{", start); i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return text.slice(text.indexOf("{", start) + 1, i);
  }
  throw new Error(`unbalanced braces after ${opener}`);
}

describe("dark colours for the system theme", () => {
  const media = blockAfter(CSS, "@media (prefers-color-scheme: dark)");
  const explicit = [...rules(CSS.replace(media, ""))].filter(([sel]) => sel.startsWith("html.dark "));
  const system = rules(media);

  it("finds the explicit dark rules it compares", () => {
    expect(explicit.map(([sel]) => sel)).toContain("html.dark .markdown");
  });

  it("repeats every html.dark rule under prefers-color-scheme, for html:not(.light), with the same declarations", () => {
    const twins = explicit.map(([sel, decls]) => [sel.replace(/^html\.dark /, "html:not(.light) "), decls] as const);
    expect(Object.fromEntries([...system].sort())).toEqual(Object.fromEntries([...twins].sort()));
  });
});

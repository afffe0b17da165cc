/**
 * Server-side syntax highlighting with one shared shiki highlighter.
 *
 * Why this shape:
 * - Fine-grained core + a fixed language list + the JavaScript regex engine lets the highlighter
 *   be created synchronously (no WASM, no dynamic imports), so `highlightCode` can be a plain
 *   function and nothing here ever reaches the browser bundle (the file is `.server.ts`).
 * - Dual themes via CSS variables (`defaultColor: false`): the markup carries both
 *   `--shiki-light*` and `--shiki-dark*`, and app/markdown/markdown.css picks one based on the
 *   `dark` class on <html>. Without that CSS the code renders uncoloured but readable.
 *
 * Text policy (callers rely on it for usage snippets):
 * - Every character of `code` is preserved in the output's text content, including leading
 *   spaces/tabs, trailing spaces and blank lines, except that CRLF and lone CR line endings
 *   become LF (shiki splits lines on them).
 * - Trailing newlines are kept as given: "a\n" renders as the line "a" followed by an empty
 *   line. Trim before calling if you do not want that empty last line.
 * - Unknown or missing languages render as plain, HTML-escaped text in the same <pre class="shiki">.
 */
import type { Root } from "hast";
import { createHighlighterCoreSync, type HighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import bash from "shiki/langs/shellscript.mjs";
import c from "shiki/langs/c.mjs";
import cpp from "shiki/langs/cpp.mjs";
import css from "shiki/langs/css.mjs";
import diff from "shiki/langs/diff.mjs";
import dockerfile from "shiki/langs/dockerfile.mjs";
import go from "shiki/langs/go.mjs";
import html from "shiki/langs/html.mjs";
import ini from "shiki/langs/ini.mjs";
import java from "shiki/langs/java.mjs";
import javascript from "shiki/langs/javascript.mjs";
import jinja from "shiki/langs/jinja.mjs";
import json from "shiki/langs/json.mjs";
import markdown from "shiki/langs/markdown.mjs";
import python from "shiki/langs/python.mjs";
import rust from "shiki/langs/rust.mjs";
import shellsession from "shiki/langs/shellsession.mjs";
import sql from "shiki/langs/sql.mjs";
import toml from "shiki/langs/toml.mjs";
import typescript from "shiki/langs/typescript.mjs";
import yaml from "shiki/langs/yaml.mjs";
// github-dark-default, not github-dark: the latter's comments are 3.05:1 on its background (WCAG AA wants 4.5:1).
import githubDark from "shiki/themes/github-dark-default.mjs";
// The high-contrast light theme: plain github-light has token colours below 4.5:1 on the block background.
import githubLight from "shiki/themes/github-light-high-contrast.mjs";
import { Lru, stringBytes } from "#app/utils/lru.ts";

const THEMES = { light: "github-light-high-contrast", dark: "github-dark-default" } as const;

/** Names people write after ``` that shiki's own alias lists do not cover. */
const EXTRA_ALIASES: Readonly<Record<string, string>> = {
  text: "text",
  txt: "text",
  plain: "text",
  plaintext: "text",
  none: "text",
  python3: "python",
  py3: "python",
  ipython: "python",
  pycon: "python",
  zsh: "shellscript",
  console: "shellsession",
  terminal: "shellsession",
  "c++": "cpp",
  golang: "go",
  jinja2: "jinja",
  j2: "jinja",
  "jinja-html": "jinja-html",
  cfg: "ini",
  conf: "ini",
  patch: "diff",
  htm: "html",
  xhtml: "html",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  mts: "typescript",
  cts: "typescript",
};

let highlighter: HighlighterCore | null = null;

function getHighlighter(): HighlighterCore {
  highlighter ??= createHighlighterCoreSync({
    themes: [githubLight, githubDark],
    langs: [
      python,
      javascript,
      typescript,
      bash,
      shellsession,
      json,
      yaml,
      markdown,
      jinja,
      c,
      cpp,
      rust,
      go,
      java,
      sql,
      html,
      css,
      diff,
      dockerfile,
      toml,
      ini,
    ],
    // The JS engine is what makes synchronous creation possible; `forgiving` keeps a grammar
    // with an untranslatable regex usable instead of throwing mid-render.
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  });
  return highlighter;
}

/**
 * Maps a fence info string or language name ("Python", "py {linenos}", "bash") to the canonical
 * id of a loaded shiki language ("python", "shellscript"), or "text" when it is unknown.
 */
export function resolveLanguage(lang: string | null | undefined): string {
  const name = (lang ?? "").trim().split(/[\s{,]/, 1)[0]?.toLowerCase() ?? "";
  if (name === "") return "text";
  const alias = EXTRA_ALIASES[name];
  if (alias !== undefined) return alias;
  const highlighter = getHighlighter();
  if (!highlighter.getLoadedLanguages().includes(name)) return "text";
  // Canonical id, so that "py" and "python" share one cache entry.
  return highlighter.getLanguage(name).name;
}

/** Languages that get real highlighting (shiki ids; their aliases work too). */
export function supportedLanguages(): string[] {
  return getHighlighter()
    .getLoadedLanguages()
    .filter((name) => !name.includes("-") || name === "jinja-html")
    .sort();
}

/** Highlighted code as a fresh hast tree (a single <pre class="shiki">), for callers that splice trees. */
export function highlightToHast(code: string, lang: string | null | undefined): Root {
  return getHighlighter().codeToHast(code, {
    lang: resolveLanguage(lang),
    themes: THEMES,
    defaultColor: false,
  });
}

const htmlCache = new Lru<string>({ maxBytes: 8 * 1024 * 1024, sizeOf: stringBytes });

/** Highlighted code as an HTML string (trusted: the code is escaped by shiki). Cached. */
export function highlightCode(code: string, lang: string): string {
  const language = resolveLanguage(lang);
  const key = `${language}\u0000${code}`;
  const cached = htmlCache.get(key);
  if (cached !== undefined) return cached;
  const result = getHighlighter().codeToHtml(code, {
    lang: language,
    themes: THEMES,
    defaultColor: false,
  });
  htmlCache.set(key, result);
  return result;
}

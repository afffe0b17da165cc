import { parse as parseYaml } from "yaml";

export type FrontMatterResult = {
  /** Parsed YAML mapping, or null when there is no front matter, it is empty, or it is invalid. */
  data: Record<string, unknown> | null;
  /** The markdown after the closing delimiter (the whole input when there is no front matter). */
  body: string;
  /** Why the front matter could not be used; the body is still split off so it never renders. */
  error: string | null;
};

// A BOM and leading blank lines occur in real cards; the fence must still be on its own line.
const OPENING = /^\uFEFF?(?:[ \t]*\r?\n)*---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * Splits YAML front matter (between `---` lines at the very top) from a model card.
 * Never throws: malformed YAML yields `data: null` and an `error` message.
 */
export function splitFrontMatter(md: string): FrontMatterResult {
  const opening = OPENING.exec(md);
  if (!opening) return { data: null, body: md, error: null };

  const rest = md.slice(opening[0].length);
  // The closing fence may directly follow the opening one (empty front matter).
  const closing = CLOSING.exec(rest);
  if (!closing) {
    // Without a closing fence this is not front matter; `---` is just a thematic break.
    return { data: null, body: md, error: null };
  }

  const yamlText = rest.slice(0, closing.index);
  let body = rest.slice(closing.index + closing[0].length);
  body = body.replace(/^\r?\n/, "");

  if (yamlText.trim() === "") return { data: null, body, error: null };

  let parsed: unknown;
  try {
    // `uniqueKeys: false` because real cards repeat keys; the last one wins, as on the Hub.
    parsed = parseYaml(yamlText, { uniqueKeys: false, maxAliasCount: 100 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { data: null, body, error: `Invalid YAML front matter: ${message}` };
  }

  if (parsed === null || parsed === undefined) return { data: null, body, error: null };
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    return { data: null, body, error: "YAML front matter must be a mapping of keys to values" };
  }
  return { data: Object.fromEntries(Object.entries(parsed)), body, error: null };
}

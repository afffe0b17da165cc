/**
 * "Use this model" entries for local apps: every LOCAL_APPS entry whose displayOnModelPage(model)
 * is true, in the library's order, with its snippets normalised to one shape (text untouched) or
 * its deeplink as a string.
 */
import type { LocalApp, LocalAppSnippet, ModelData, PipelineType } from "@huggingface/tasks";
import { LOCAL_APPS, parseGGUFQuantLabel } from "@huggingface/tasks";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { isGgufRepo } from "#app/catalog/gguf.ts";
import { toModelData } from "#app/snippets/model-data.ts";

export interface LocalAppSnippetBlock {
  title: string;
  setup?: string;
  /** One command, or several shown one after another; exactly as the library wrote them. */
  content: string | string[];
}

export interface LocalAppEntry {
  key: string;
  prettyLabel: string;
  docsUrl: string;
  mainTask: PipelineType;
  macOSOnly: boolean;
  comingSoon: boolean;
  kind: "snippets" | "deeplink";
  snippets?: LocalAppSnippetBlock[];
  deeplink?: string;
  /** Set when the app's snippet or deeplink function threw for this model. */
  error?: string;
}

export interface LocalAppOptions {
  /**
   * A file in the repo (e.g. one .gguf quant). Without it the library leaves its placeholders
   * ({{GGUF_FILE}}, {{QUANT_TAG}}) in the text, as the Hub does before a file is picked.
   */
  filepath?: string;
}

// Schemes that run code or read local data when a link is followed from a page.
const FORBIDDEN_SCHEMES: ReadonlySet<string> = new Set([
  "javascript:",
  "vbscript:",
  "data:",
  "file:",
  "blob:",
  "filesystem:",
  "about:",
]);

/**
 * Deeplinks are custom app schemes (lmstudio:, jan:, msty:, …) or https. Anything that a browser
 * would execute or resolve locally is refused, and so is anything that is not an absolute URL.
 */
export function isSafeDeeplink(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  const scheme = url.protocol.toLowerCase();
  if (!/^[a-z][a-z0-9+.-]*:$/.test(scheme)) return false;
  // URL parsing drops tabs and newlines inside a scheme, so "java\tscript:" is caught here too.
  return !FORBIDDEN_SCHEMES.has(scheme);
}

function isLocalAppSnippet(value: string | LocalAppSnippet): value is LocalAppSnippet {
  return typeof value !== "string";
}

function toBlock(snippet: LocalAppSnippet): LocalAppSnippetBlock {
  const block: LocalAppSnippetBlock = { title: snippet.title, content: snippet.content };
  if (snippet.setup !== undefined) block.setup = snippet.setup;
  return block;
}

/**
 * The library returns a command string, a list of commands, one titled snippet or a list of them.
 * Bare commands carry no title of their own, so they take the app's name.
 */
export function normaliseLocalAppSnippets(
  raw: string | string[] | LocalAppSnippet | LocalAppSnippet[],
  prettyLabel: string,
): LocalAppSnippetBlock[] {
  if (typeof raw === "string") return [{ title: prettyLabel, content: raw }];
  if (!Array.isArray(raw)) return [toBlock(raw)];
  const blocks: LocalAppSnippetBlock[] = [];
  const commands: string[] = [];
  for (const item of raw) {
    if (isLocalAppSnippet(item)) blocks.push(toBlock(item));
    else commands.push(item);
  }
  if (commands.length > 0) blocks.unshift({ title: prettyLabel, content: commands });
  return blocks;
}

const QUANT_TAG_PLACEHOLDER = ":{{QUANT_TAG}}";

/**
 * LOCAL_APPS' vLLM entry prints the Docker Model Runner command without the file it was given (its
 * snippet function takes no file), so `:{{QUANT_TAG}}` stayed in it after a file was picked. The tag
 * is filled as the library fills it in the entries that take the file (its getQuantTag: the file's
 * quant label, else the placeholder); every other character is the library's.
 */
export function withQuantTag(blocks: LocalAppSnippetBlock[], filepath: string | undefined): LocalAppSnippetBlock[] {
  const label = filepath === undefined ? undefined : parseGGUFQuantLabel(filepath);
  if (label === undefined) return blocks;
  const fill = (text: string) => text.split(QUANT_TAG_PLACEHOLDER).join(`:${label}`);
  return blocks.map((b) => ({ ...b, content: Array.isArray(b.content) ? b.content.map(fill) : fill(b.content) }));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function entryFor(key: string, app: LocalApp, data: ModelData, filepath: string | undefined): LocalAppEntry | null {
  const base = {
    key,
    prettyLabel: app.prettyLabel,
    docsUrl: app.docsUrl,
    mainTask: app.mainTask,
    macOSOnly: app.macOSOnly ?? false,
    comingSoon: app.comingSoon ?? false,
  };
  if ("deeplink" in app) {
    let href: string;
    try {
      href = app.deeplink(data, filepath).href;
    } catch (error) {
      return { ...base, kind: "deeplink", error: errorMessage(error) };
    }
    // An unsafe link is dropped, not shown as text: the app cannot be opened from this page.
    return isSafeDeeplink(href) ? { ...base, kind: "deeplink", deeplink: href } : null;
  }
  try {
    return { ...base, kind: "snippets", snippets: withQuantTag(normaliseLocalAppSnippets(app.snippet(data, filepath), app.prettyLabel), filepath) };
  } catch (error) {
    return { ...base, kind: "snippets", snippets: [], error: errorMessage(error) };
  }
}

export function localAppSnippetsFromModelData(data: ModelData, options: LocalAppOptions = {}): LocalAppEntry[] {
  const apps: Record<string, LocalApp> = LOCAL_APPS;
  const entries: LocalAppEntry[] = [];
  for (const [key, app] of Object.entries(apps)) {
    let shown: boolean;
    try {
      shown = app.displayOnModelPage(data);
    } catch {
      // A predicate that cannot evaluate this model's metadata means the app does not apply.
      shown = false;
    }
    if (!shown) continue;
    const entry = entryFor(key, app, data, options.filepath);
    if (entry !== null) entries.push(entry);
  }
  return entries;
}

/**
 * Stands in for a context length the catalogue does not hold. LOCAL_APPS (0.19.90) recognises a GGUF
 * repo only by a truthy `gguf.context_length`, which the Hub sets for every repo whose GGUF it
 * parsed. A repo recognised by its library, tags or .gguf files but without an imported header
 * would otherwise get none of the GGUF apps. The value lives only in the ModelData handed to
 * LOCAL_APPS: no app prints it, and the page and API show the stored header, never this.
 */
export const UNKNOWN_GGUF_CONTEXT_LENGTH = Number.MAX_SAFE_INTEGER;

/**
 * The ModelData LOCAL_APPS sees: toModelData's, plus the GGUF marker above when the repo is GGUF by
 * any signal (library, tags, files, header) and no header gave a context length.
 */
export function toLocalAppModelData(model: CatalogModel): ModelData {
  const data = toModelData(model);
  if (!isGgufRepo(model) || data.gguf?.context_length) return data;
  return { ...data, gguf: { ...data.gguf, total: data.gguf?.total ?? model.params ?? 0, context_length: UNKNOWN_GGUF_CONTEXT_LENGTH } };
}

export function getLocalAppSnippets(model: CatalogModel, options: LocalAppOptions = {}): LocalAppEntry[] {
  return localAppSnippetsFromModelData(toLocalAppModelData(model), options);
}

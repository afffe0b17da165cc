/**
 * The Files tab: the repository's file list, and a viewer for the metadata files whose content the
 * catalogue holds (the Hub API's config summary, tokenizer_config, the README). Everything else is
 * linked to the file host.
 */
import { type IslandHtml, type IslandStore, toIsland } from "#app/utils/html-island.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";

/** Longer listings are cut: a page with tens of thousands of rows helps nobody. */
export const MAX_LISTED_FILES = 500;
const MAX_VIEW_CHARS = 200_000;

export interface FilesView {
  files: Array<{ path: string; size: number | null; viewable: boolean }>;
  /** Prefix of a file's page on the file host: blobBase + encodeURI(path). */
  blobBase: string;
  totalFiles: number;
  totalBytes: number | null;
  viewable: Array<{ path: string; note: string }>;
  viewer:
    | { path: string; status: "shown"; note: string; html: IslandHtml; text: string; url: string | null; truncated: boolean }
    | { path: string; status: "not-stored"; url: string }
    /** The repository's file list, as imported, has no such file. */
    | { path: string; status: "not-in-repo" }
    | null;
}

/** The keys the Hub merges into `config` from files other than config.json. */
const MERGED_KEYS = new Set(["tokenizer_config", "processor_config", "chat_template_jinja"]);

interface StoredFile {
  path: string;
  note: string;
  lang: "json" | "markdown";
  content: () => string;
}

function storedFiles(model: CatalogModel): StoredFile[] {
  const out: StoredFile[] = [];
  const config = model.config;
  if (config) {
    const own = Object.fromEntries(Object.entries(config).filter(([k]) => !MERGED_KEYS.has(k)));
    if (Object.keys(own).length > 0) {
      out.push({
        path: "config.json",
        note: "The fields the Hub API reports from config.json (architectures, model type, quantization…), not the whole file.",
        lang: "json",
        content: () => JSON.stringify(own, null, 2),
      });
    }
    for (const key of ["tokenizer_config", "processor_config"] as const) {
      const value = config[key];
      if (value && typeof value === "object") {
        out.push({
          path: `${key}.json`,
          note: `The fields the Hub API reports from ${key}.json (chat template and special tokens), not the whole file.`,
          lang: "json",
          content: () => JSON.stringify(value, null, 2),
        });
      }
    }
  }
  if (model.cardMarkdown) {
    out.push({ path: "README.md", note: "The model card, exactly as imported.", lang: "markdown", content: () => model.cardMarkdown ?? "" });
  }
  return out;
}

function fileUrl(hub: string, id: string, revision: string, path: string): string {
  return `${hub}/${id}/blob/${encodeURIComponent(revision)}/${encodeURI(path)}`;
}

export function buildFilesView(model: CatalogModel, requested: string | null, hub: string, revision: string, islands?: IslandStore): FilesView {
  const stored = storedFiles(model);
  const storedPaths = new Set(stored.map((s) => s.path));
  const sizes = model.siblings.map((s) => s.size);
  const totalBytes = sizes.length > 0 && sizes.every((s) => s != null) ? sizes.reduce<number>((a, b) => a + (b ?? 0), 0) : null;
  let viewer: FilesView["viewer"] = null;
  if (requested !== null && requested !== "") {
    const path = requested.slice(0, 500);
    const file = stored.find((s) => s.path === path);
    const inRepo = model.siblings.some((s) => s.rfilename === path);
    if (file) {
      const full = file.content();
      const truncated = full.length > MAX_VIEW_CHARS;
      const text = truncated ? full.slice(0, MAX_VIEW_CHARS) : full;
      viewer = {
        path,
        status: "shown",
        note: file.note,
        text,
        html: toIsland(islands, highlightCode(text, file.lang)),
        url: inRepo ? fileUrl(hub, model.id, revision, path) : null,
        truncated,
      };
    } else if (model.siblings.length > 0 && !inRepo) {
      // Only a known file list can say a file is not there; without one the Hub link stays.
      viewer = { path, status: "not-in-repo" };
    } else {
      viewer = { path, status: "not-stored", url: fileUrl(hub, model.id, revision, path) };
    }
  }
  return {
    files: model.siblings.slice(0, MAX_LISTED_FILES).map((s) => ({
      path: s.rfilename,
      size: s.size,
      viewable: storedPaths.has(s.rfilename),
    })),
    blobBase: fileUrl(hub, model.id, revision, ""),
    totalFiles: model.siblings.length,
    totalBytes,
    viewable: stored.map((s) => ({ path: s.path, note: s.note })),
    viewer,
  };
}

/** The page's status: 404 when the file asked for is not in the repository's file list, else 200. */
export function filesViewStatus(files: FilesView | null): 200 | 404 {
  return files?.viewer?.status === "not-in-repo" ? 404 : 200;
}

/**
 * "Use this model" code for the model's own library: exactly what
 * MODEL_LIBRARIES_UI_ELEMENTS[library].snippets(model) returns, strings untouched.
 */
import type { LibraryUiElement, ModelData, ModelLibraryKey } from "@huggingface/tasks";
import { ALL_MODEL_LIBRARY_KEYS, MODEL_LIBRARIES_UI_ELEMENTS } from "@huggingface/tasks";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { holdsOnlyGgufWeights } from "#app/catalog/gguf.ts";
import { toModelData } from "#app/snippets/model-data.ts";

export interface LibrarySnippets {
  /** The library key as the Hub spells it in `library_name`. */
  library: string;
  prettyLabel: string;
  repoUrl: string;
  docsUrl?: string;
  /** Empty when the library defines no snippets (or its snippet function failed, see `error`). */
  snippets: string[];
  /** Set when the library's snippet function threw for this model's data. */
  error?: string;
  /**
   * Set for a transformers repo of GGUF weights only: the file the code loads with gguf_file=,
   * GGUF_FILE_PLACEHOLDER when the catalogue knows none.
   */
  ggufFile?: string;
}

/** LOCAL_APPS' own placeholder for a file name, so one note on the page covers both. */
export const GGUF_FILE_PLACEHOLDER = "{{GGUF_FILE}}";

export interface LibrarySnippetOptions {
  /** The .gguf file the page's commands use (the visitor's pick or the default). */
  ggufFile?: string;
}

const LIBRARY_KEYS: ReadonlySet<string> = new Set(ALL_MODEL_LIBRARY_KEYS);

export function isModelLibraryKey(name: string): name is ModelLibraryKey {
  // A Set lookup rather than `in`, so names such as "constructor" or "__proto__" never match.
  return LIBRARY_KEYS.has(name);
}

export function libraryUiElement(name: string): LibraryUiElement | null {
  return isModelLibraryKey(name) ? MODEL_LIBRARIES_UI_ELEMENTS[name] : null;
}

/** Runs the library's snippet function on already-built ModelData. */
export function librarySnippetsFromModelData(data: ModelData): LibrarySnippets | null {
  const name = data.library_name;
  if (name === undefined) return null;
  const element = libraryUiElement(name);
  if (element === null) return null;
  const result: LibrarySnippets = {
    library: name,
    prettyLabel: element.prettyLabel,
    repoUrl: element.repoUrl,
    snippets: [],
  };
  if (element.docsUrl !== undefined) result.docsUrl = element.docsUrl;
  if (element.snippets === undefined) return result;
  try {
    result.snippets = element.snippets(data);
  } catch (error) {
    // One library's bug on odd metadata must not take the model page down.
    result.error = error instanceof Error ? error.message : String(error);
  }
  return result;
}

/**
 * The library's transformers code for a repo of GGUF weights only, loading `file`: its
 * `from_pretrained("<id>"` calls get `gguf_file=`, and its `pipeline(…, model="<id>"` gets
 * `model_kwargs={"gguf_file": …}`, which the pipeline passes to the config, tokenizer and model.
 * Without it @huggingface/tasks' code looks for config.json and weights the repo does not have.
 */
export function withGgufFile(snippet: string, id: string, file: string): string {
  const literal = JSON.stringify(file);
  const model = JSON.stringify(id);
  return snippet
    .split(`.from_pretrained(${model}`)
    .join(`.from_pretrained(${model}, gguf_file=${literal}`)
    .split(`, model=${model}`)
    .join(`, model=${model}, model_kwargs={"gguf_file": ${literal}}`);
}

/** Null when the model has no library_name or the library is unknown to @huggingface/tasks. */
export function getLibrarySnippets(model: CatalogModel, options: LibrarySnippetOptions = {}): LibrarySnippets | null {
  const result = librarySnippetsFromModelData(toModelData(model));
  if (result?.library !== "transformers" || !holdsOnlyGgufWeights(model)) return result;
  const file = options.ggufFile ?? GGUF_FILE_PLACEHOLDER;
  return { ...result, snippets: result.snippets.map((s) => withGgufFile(s, model.id, file)), ggufFile: file };
}

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { gguf } from "@huggingface/gguf";
import YAML from "yaml";
import { isGgufFilename } from "#app/catalog/gguf.ts";

/** A file the importer cannot read at all (not JSON, missing, unreadable). Exit code 1. */
export class ImportFileError extends Error {
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
    this.name = "ImportFileError";
  }
}

export type SourceItem =
  | { kind: "record"; source: string; line: number; value: unknown; createDefaults?: Record<string, unknown> }
  | { kind: "reject"; source: string; line: number; reason: string };

/** Lines longer than this are rejected before parsing, so one absurd row cannot exhaust memory. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

function isGzip(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(2);
    const n = fs.readSync(fd, buf, 0, 2, 0);
    return n === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

function openText(file: string): Readable {
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  return isGzip(file) ? raw.pipe(zlib.createGunzip()) : raw;
}

/**
 * A read that failed part-way (gzip's "unexpected end of file" or "incorrect data check") as an
 * ImportFileError naming the file and the line reached: zlib's own message names neither.
 */
function damaged(file: string, linesRead: number, e: unknown): ImportFileError {
  const cause = e instanceof Error ? e.message : String(e);
  const where = linesRead ? `after line ${linesRead}` : "at its start";
  return new ImportFileError(
    file,
    `cannot be read ${where} (${cause}): it is damaged or cut short. Rows from it already committed are kept; fetch a whole copy and import it again (imports are idempotent).`,
  );
}

async function firstNonSpaceChar(file: string): Promise<string | null> {
  const stream = openText(file);
  try {
    for await (const chunk of stream) {
      const text = String(chunk);
      const m = /\S/.exec(text);
      if (m) return m[0];
    }
    return null;
  } catch (e) {
    throw damaged(file, 0, e);
  } finally {
    stream.destroy();
  }
}

/** Reads a JSON Lines file (or a JSON array) record by record, plain or gzipped. */
export async function* readJsonFile(file: string): AsyncGenerator<SourceItem> {
  const first = await firstNonSpaceChar(file);
  if (first === null) return;
  if (first === "[") {
    const chunks: string[] = [];
    try {
      for await (const c of openText(file)) chunks.push(String(c));
    } catch (e) {
      throw damaged(file, 0, e);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(chunks.join(""));
    } catch (e) {
      throw new ImportFileError(file, `is not valid JSON (${(e as Error).message}). Expected a JSON array or one JSON object per line.`);
    }
    if (!Array.isArray(parsed)) throw new ImportFileError(file, "is not a JSON array");
    for (let i = 0; i < parsed.length; i++) yield { kind: "record", source: file, line: i + 1, value: parsed[i] };
    return;
  }
  if (first !== "{") {
    throw new ImportFileError(
      file,
      `is not JSON: it starts with '${first}'. Expected one JSON object per line (the Hub list or /api/models/{id} format), a JSON array, or a folder of model cards.`,
    );
  }
  const rl = readline.createInterface({ input: openText(file), crlfDelay: Infinity });
  let line = 0;
  // Only the read can throw here: JSON errors are caught below, and a consumer that stops early
  // ends the generator through its return, which runs no catch.
  try {
    for await (const text of rl) {
      line++;
      if (!text.trim()) continue;
      if (text.length > MAX_LINE_BYTES) {
        yield { kind: "reject", source: file, line, reason: `line is longer than ${MAX_LINE_BYTES / 1024 / 1024} MB` };
        continue;
      }
      try {
        yield { kind: "record", source: file, line, value: JSON.parse(text) };
      } catch (e) {
        yield { kind: "reject", source: file, line, reason: `malformed JSON: ${(e as Error).message}` };
      }
    }
  } catch (e) {
    throw damaged(file, line, e);
  }
}

/** Splits YAML front matter from a model card. Bad YAML is reported, never thrown. */
export function parseCard(text: string): { data: Record<string, unknown> | null; error: string | null } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text.replace(/^\uFEFF/, ""));
  if (!m) return { data: null, error: null };
  try {
    const data: unknown = YAML.parse(m[1]!);
    if (data && typeof data === "object" && !Array.isArray(data)) return { data: data as Record<string, unknown>, error: null };
    return { data: null, error: "front matter is not a mapping" };
  } catch (e) {
    return { data: null, error: `front matter is not valid YAML: ${(e as Error).message.split("\n")[0]}` };
  }
}

/** `<org>__<name>.md` or `<org>__<name>/` names a model; a name without `__` is a legacy id. */
export function idFromFileName(name: string): string {
  return name.replace(/\.md$/i, "").replace("__", "/");
}

function cardDefaults(data: Record<string, unknown> | null): Record<string, unknown> {
  if (!data) return {};
  const tags = Array.isArray(data["tags"]) ? data["tags"].filter((t): t is string => typeof t === "string") : [];
  const defaults: Record<string, unknown> = { tags };
  if (typeof data["pipeline_tag"] === "string") defaults["pipeline_tag"] = data["pipeline_tag"];
  if (typeof data["library_name"] === "string") defaults["library_name"] = data["library_name"];
  return defaults;
}

export function cardItem(file: string, id: string): SourceItem {
  const text = fs.readFileSync(file, "utf8");
  const { data, error } = parseCard(text);
  if (error) return { kind: "reject", source: file, line: 1, reason: error };
  return {
    kind: "record",
    source: file,
    line: 1,
    value: { id, readme: text, ...(data ? { cardData: data } : {}) },
    createDefaults: cardDefaults(data),
  };
}

function readJsonObject(file: string): Record<string, unknown> | null {
  if (!fs.existsSync(file)) return null;
  const v: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A GGUF header names its BOS/EOS tokens by id into `tokenizer.ggml.tokens`; the Hub shows the text. */
function ggufSpecialToken(metadata: Record<string, unknown>, which: "bos" | "eos"): string | undefined {
  const id = metadata[`tokenizer.ggml.${which}_token_id`];
  const tokens = metadata["tokenizer.ggml.tokens"];
  if ((typeof id !== "number" && typeof id !== "bigint") || !Array.isArray(tokens)) return undefined;
  const token: unknown = tokens[Number(id)];
  return typeof token === "string" ? token : undefined;
}

const MODEL_FOLDER_MARKERS = ["config.json", "tokenizer_config.json", "README.md", "model_index.json"];

export function isModelFolder(dir: string): boolean {
  const entries = fs.readdirSync(dir);
  return entries.some((e) => MODEL_FOLDER_MARKERS.includes(e) || isGgufFilename(e) || e.endsWith(".safetensors"));
}

/** A local model repository: README, config.json, tokenizer_config.json, GGUF headers, file sizes. */
export async function modelFolderItem(dir: string, id: string): Promise<SourceItem> {
  const source = dir;
  try {
    const files = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && !path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).includes(".git"));
    const siblings = files
      .map((d) => {
        const full = path.join(d.parentPath, d.name);
        return { rfilename: path.relative(dir, full).split(path.sep).join("/"), size: fs.statSync(full).size };
      })
      .sort((a, b) => (a.rfilename < b.rfilename ? -1 : a.rfilename > b.rfilename ? 1 : 0));
    const value: Record<string, unknown> = { id, siblings };
    const readmePath = path.join(dir, "README.md");
    let defaults: Record<string, unknown> = {};
    if (fs.existsSync(readmePath)) {
      const text = fs.readFileSync(readmePath, "utf8");
      const { data, error } = parseCard(text);
      if (error) return { kind: "reject", source: readmePath, line: 1, reason: error };
      value["readme"] = text;
      if (data) value["cardData"] = data;
      defaults = cardDefaults(data);
    }
    const config = readJsonObject(path.join(dir, "config.json")) ?? {};
    const tokenizerConfig = readJsonObject(path.join(dir, "tokenizer_config.json"));
    if (tokenizerConfig) {
      const chatTemplateFile = path.join(dir, "chat_template.jinja");
      if (fs.existsSync(chatTemplateFile) && tokenizerConfig["chat_template"] === undefined) {
        tokenizerConfig["chat_template"] = fs.readFileSync(chatTemplateFile, "utf8");
      }
      config["tokenizer_config"] = tokenizerConfig;
    }
    if (Object.keys(config).length) value["config"] = config;
    const ggufFile = siblings.find((s) => isGgufFilename(s.rfilename));
    if (ggufFile) {
      const { metadata, parameterCount } = await gguf(path.join(dir, ggufFile.rfilename), {
        allowLocalFile: true,
        computeParametersCount: true,
      });
      const arch = typeof metadata["general.architecture"] === "string" ? metadata["general.architecture"] : undefined;
      const ctx = arch ? (metadata as Record<string, unknown>)[`${arch}.context_length`] : undefined;
      const tmpl = (metadata as Record<string, unknown>)["tokenizer.chat_template"];
      const bos = ggufSpecialToken(metadata as Record<string, unknown>, "bos");
      const eos = ggufSpecialToken(metadata as Record<string, unknown>, "eos");
      // The Hub's `gguf` field: these six keys, the tokens as text.
      value["gguf"] = {
        total: parameterCount,
        ...(arch ? { architecture: arch } : {}),
        ...(typeof ctx === "number" || typeof ctx === "bigint" ? { context_length: Number(ctx) } : {}),
        ...(typeof tmpl === "string" ? { chat_template: tmpl } : {}),
        ...(bos !== undefined ? { bos_token: bos } : {}),
        ...(eos !== undefined ? { eos_token: eos } : {}),
      };
      defaults["library_name"] ??= "gguf";
    }
    return { kind: "record", source, line: 1, value, createDefaults: defaults };
  } catch (e) {
    return { kind: "reject", source, line: 1, reason: `cannot read model folder: ${(e as Error).message}` };
  }
}

const DATA_FILE = /\.(jsonl|json|ndjson)(\.gz)?$|\.gz$/i;

/** Expands the paths given on the command line into the records they hold. */
export async function* readSources(paths: string[]): AsyncGenerator<SourceItem> {
  for (const p of paths) {
    if (!fs.existsSync(p)) throw new ImportFileError(p, "does not exist");
    const stat = fs.statSync(p);
    if (stat.isFile()) {
      if (/\.md$/i.test(p)) yield cardItem(p, idFromFileName(path.basename(p)));
      else yield* readJsonFile(p);
      continue;
    }
    if (isModelFolder(p) && !fs.readdirSync(p).some((e) => /__.+\.md$/i.test(e))) {
      yield await modelFolderItem(p, idFromFileName(path.basename(path.resolve(p))));
      continue;
    }
    let sources = 0;
    for (const entry of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(p, entry.name);
      if (entry.isDirectory() && isModelFolder(full)) {
        sources++;
        yield await modelFolderItem(full, idFromFileName(entry.name));
      } else if (entry.isFile() && /\.md$/i.test(entry.name) && entry.name.toLowerCase() !== "readme.md") {
        sources++;
        yield cardItem(full, idFromFileName(entry.name));
      } else if (entry.isFile() && DATA_FILE.test(entry.name)) {
        sources++;
        yield* readJsonFile(full);
      }
    }
    // Said, rather than "Imported 0 rows" and exit 0 as if the folder had been read and was empty.
    if (sources === 0) {
      throw new ImportFileError(
        p,
        "holds nothing to import: no dump (.jsonl, .json, .gz), no model card (<org>__<name>.md) and no model folder (one with config.json, README.md, .gguf or .safetensors files)",
      );
    }
  }
}

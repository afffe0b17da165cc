/**
 * Every "Use this model" snippet for every model of the bundled catalogue (the one `npm start`
 * loads), read back through the real importer and database, as a model page reads it.
 * - Each library snippet and local-app entry is generated without error.
 * - No library prints its "unknown" placeholder when the catalogue's data allows better.
 * - For the 100 most downloaded transformers models, the Transformers snippets are exactly
 *   @huggingface/tasks' output for the metadata derived straight from the catalogue row (ADR 0014),
 *   with gguf_file= for the repos of GGUF weights only (withGgufFile).
 * - For the 100 most downloaded GGUF repos (none is among the 100 most downloaded models overall),
 *   the local apps and their snippets are exactly LOCAL_APPS' output for the same ModelData, with
 *   a picked file's quant tag where the library left its placeholder (withQuantTag).
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { LOCAL_APPS, type LocalApp, MODEL_LIBRARIES_UI_ELEMENTS, type ModelData } from "@huggingface/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { deriveTransformersInfo } from "#app/catalog/transformers-info.ts";
import { GGUF_FILE_PLACEHOLDER, type LibrarySnippets, getLibrarySnippets, withGgufFile } from "#app/snippets/library-snippets.ts";
import {
  type LocalAppEntry,
  UNKNOWN_GGUF_CONTEXT_LENGTH,
  getLocalAppSnippets,
  normaliseLocalAppSnippets,
  withQuantTag,
} from "#app/snippets/local-app-snippets.ts";
import { pipelineTagFor, toModelData } from "#app/snippets/model-data.ts";
import { ggufFilesWithQuant, holdsOnlyGgufWeights } from "#app/catalog/gguf.ts";

const CATALOGUE = path.resolve(import.meta.dirname, "..", "..", "catalogue", "hub-catalogue-2024-07-11.jsonl.gz");

type Row = Record<string, unknown>;

async function readRows(): Promise<Row[]> {
  const rows: Row[] = [];
  const input = fs.createReadStream(CATALOGUE).pipe(zlib.createGunzip());
  for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) if (line.trim()) rows.push(JSON.parse(line) as Row);
  return rows;
}

/**
 * A library's "cannot say" output, with what the catalogue would need to hold for the library to do
 * better. A placeholder is acceptable only when that is missing.
 */
const PLACEHOLDERS: Record<string, { text: RegExp; dataAllowsBetter: (m: CatalogModel) => boolean }> = {
  transformers: {
    text: /^# ⚠️ Type of model unknown/,
    // Every transformers model gets a class, at worst the Hub's bare AutoModel.
    dataAllowsBetter: (m) =>
      deriveTransformersInfo({ config: m.config, tags: m.tags, pipelineTag: m.pipelineTag, libraryName: m.libraryName }) !== null,
  },
  "transformers.js": { text: /^\/\/ ⚠️ Unknown pipeline tag/, dataAllowsBetter: (m) => pipelineTagFor(m.pipelineTag) !== undefined },
  paddlenlp: { text: /^# ⚠️ Type of model unknown/, dataAllowsBetter: (m) => Array.isArray(m.config?.["architectures"]) },
  audiocraft: { text: /^# Type of model unknown\./, dataAllowsBetter: (m) => ["musicgen", "audiogen", "magnet"].some((t) => m.tags.includes(t)) },
  espnet: {
    text: /^unknown model type/,
    dataAllowsBetter: (m) => m.pipelineTag === "text-to-speech" || m.pipelineTag === "automatic-speech-recognition",
  },
  peft: { text: /^(Task type is invalid\.|Base model is not found\.)$/, dataAllowsBetter: (m) => m.config?.["peft"] !== undefined },
};

/** Any other snippet that reads like a placeholder fails the test until it is listed above. */
const LOOKS_UNKNOWN = /unknown|invalid|not found/i;

describe("the bundled catalogue's Use-this-model snippets", () => {
  let t: TestDatabase;
  let rows: Row[];
  const models = new Map<string, CatalogModel>();

  beforeAll(async () => {
    rows = await readRows();
    t = await testDialects()[0]!.create();
    await importPaths(t.handle, [CATALOGUE], { statsAsOf: "2024-07-11" });
    for (const r of rows) {
      const m = await getModelById(t.handle.db, String(r["id"]));
      if (m) models.set(m.id, m);
    }
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("imports every model", () => {
    expect(rows.length).toBe(5240);
    expect(models.size).toBe(rows.length);
  });

  it("generates every library snippet and local app without error, and no avoidable placeholder", () => {
    const errors: string[] = [];
    const avoidable: string[] = [];
    const unlisted: string[] = [];
    const placeholders = new Map<string, number>();
    for (const m of models.values()) {
      let lib: LibrarySnippets | null;
      let apps: LocalAppEntry[];
      try {
        lib = getLibrarySnippets(m);
        apps = getLocalAppSnippets(m);
      } catch (error) {
        errors.push(`${m.id}: threw ${String(error)}`);
        continue;
      }
      if (lib?.error) errors.push(`${m.id}: ${lib.library} snippet failed: ${lib.error}`);
      for (const a of apps) if (a.error) errors.push(`${m.id}: ${a.key} failed: ${a.error}`);
      for (const snippet of lib?.snippets ?? []) {
        const known = lib ? PLACEHOLDERS[lib.library] : undefined;
        if (lib && known?.text.test(snippet)) {
          placeholders.set(lib.library, (placeholders.get(lib.library) ?? 0) + 1);
          if (known.dataAllowsBetter(m)) avoidable.push(`${m.id} (${lib.library}): ${snippet.split("\n")[0]}`);
        } else if (LOOKS_UNKNOWN.test(snippet.split("\n")[0] ?? "")) {
          unlisted.push(`${m.id} (${lib?.library}): ${snippet.split("\n")[0]}`);
        }
      }
    }
    expect(errors).toEqual([]);
    expect(avoidable).toEqual([]);
    expect(unlisted).toEqual([]);
    // Every transformers model gets a class: at worst the Hub's bare AutoModel.
    expect(placeholders.get("transformers") ?? 0).toBe(0);
  });

  it("gives the models named in issue 13 real Transformers code", () => {
    const pairs = Object.fromEntries(
      [
        "meta-llama/Meta-Llama-3-8B-Instruct",
        "bigscience/bloom",
        "mistralai/Mistral-7B-Instruct-v0.2",
        "google/gemma-7b",
        "openai/whisper-large-v3",
      ].map((id) => {
        const info = models.get(id)?.transformersInfo;
        return [id, info ? `${String(info["auto_model"])} / ${String(info["processor"])}` : null];
      }),
    );
    expect(pairs).toEqual({
      "meta-llama/Meta-Llama-3-8B-Instruct": "AutoModelForCausalLM / AutoTokenizer",
      "bigscience/bloom": "AutoModelForCausalLM / AutoTokenizer",
      "mistralai/Mistral-7B-Instruct-v0.2": "AutoModelForCausalLM / AutoTokenizer",
      "google/gemma-7b": "AutoModelForCausalLM / AutoTokenizer",
      "openai/whisper-large-v3": "AutoModelForSpeechSeq2Seq / AutoProcessor",
    });
    const llama = getLibrarySnippets(models.get("meta-llama/Meta-Llama-3-8B-Instruct")!);
    expect(llama?.snippets.join("\n")).toContain('pipe = pipeline("text-generation", model="meta-llama/Meta-Llama-3-8B-Instruct")');
    expect(llama?.snippets.join("\n")).toContain("from transformers import AutoTokenizer, AutoModelForCausalLM");
  });

  it("matches @huggingface/tasks' own Transformers snippets for the 100 most downloaded transformers models", () => {
    const top = rows
      .filter((r) => r["library_name"] === "transformers")
      .sort((a, b) => Number(b["downloads"] ?? 0) - Number(a["downloads"] ?? 0))
      .slice(0, 100);
    expect(top.length).toBe(100);
    const transformers = MODEL_LIBRARIES_UI_ELEMENTS.transformers;
    const derivedPairs: Record<string, string> = {};
    const ggufOnly: string[] = [];
    for (const r of top) {
      const id = String(r["id"]);
      const m = models.get(id)!;
      // Straight from the catalogue row: the record's own value, else the derivation.
      const tags = (r["tags"] as string[] | undefined) ?? [];
      const config = (r["config"] as Record<string, unknown> | undefined) ?? null;
      const own = r["transformersInfo"] as Record<string, unknown> | undefined;
      const derived = deriveTransformersInfo({
        config,
        tags,
        pipelineTag: (r["pipeline_tag"] as string | undefined) ?? null,
        libraryName: "transformers",
      });
      const expectedInfo = own ?? derived?.info;
      expect(expectedInfo, `${id}: no transformersInfo`).toBeDefined();
      // A repo of GGUF weights only loads a file with gguf_file= (withGgufFile); no file is picked here.
      const library = transformers.snippets({ ...toModelData(m), transformersInfo: expectedInfo as never });
      const expected = holdsOnlyGgufWeights(m) ? library.map((s) => withGgufFile(s, id, GGUF_FILE_PLACEHOLDER)) : library;
      if (holdsOnlyGgufWeights(m)) ggufOnly.push(id);
      const actual = getLibrarySnippets(m)?.snippets;
      expect(actual, id).toEqual(expected);
      expect(actual?.join("\n"), id).not.toContain("Type of model unknown");
      const processor = expectedInfo?.["processor"];
      derivedPairs[id] = `${String(expectedInfo?.["auto_model"])} / ${typeof processor === "string" ? processor : "-"} (${own ? "hub" : derived?.source})`;
    }
    // The derived classes themselves, reviewable in one place.
    expect(derivedPairs).toMatchSnapshot();
    // None of them holds GGUF weights only, so this compares the library's text untouched.
    expect(ggufOnly).toEqual([]);
  });

  it("gives a repo of GGUF weights only Transformers code that loads a .gguf file", () => {
    const gemma = models.get("bartowski/gemma-2-27b-it-GGUF")!;
    expect([gemma.siblings.length, holdsOnlyGgufWeights(gemma)]).toEqual([0, true]);
    const code = getLibrarySnippets(gemma)?.snippets.join("\n") ?? "";
    expect(code).toContain('AutoModelForCausalLM.from_pretrained("bartowski/gemma-2-27b-it-GGUF", gguf_file="{{GGUF_FILE}}", dtype="auto")');
    expect(code).not.toMatch(/from_pretrained\("bartowski\/gemma-2-27b-it-GGUF"\)|from_pretrained\("bartowski\/gemma-2-27b-it-GGUF", dtype/);
    // A repo that also holds safetensors weights keeps the library's code.
    const stableCode = models.get("stabilityai/stable-code-3b")!;
    expect(holdsOnlyGgufWeights(stableCode)).toBe(false);
    expect(getLibrarySnippets(stableCode)?.snippets.join("\n")).not.toContain("gguf_file");
    const ggufOnly = [...models.values()].filter((m) => getLibrarySnippets(m)?.ggufFile !== undefined);
    expect(ggufOnly.length).toBeGreaterThan(800);
  });

  it("matches LOCAL_APPS' own output for the 100 most downloaded GGUF repos", () => {
    // Recognised from the row itself: library, tags, .gguf files or a GGUF header.
    const isGgufRow = (r: Row) =>
      r["library_name"] === "gguf" ||
      ((r["tags"] as string[] | undefined) ?? []).includes("gguf") ||
      ((r["siblings"] as Array<{ rfilename: string }> | undefined) ?? []).some((f) => f.rfilename.toLowerCase().endsWith(".gguf")) ||
      r["gguf"] !== undefined;
    const top = rows
      .filter(isGgufRow)
      .sort((a, b) => Number(b["downloads"] ?? 0) - Number(a["downloads"] ?? 0))
      .slice(0, 100);
    expect(top.length).toBe(100);
    const apps: Record<string, LocalApp> = LOCAL_APPS;
    let withFiles = 0;
    for (const r of top) {
      const id = String(r["id"]);
      const m = models.get(id)!;
      // The Hub's object for the row: its own `gguf` when it has one; else the GGUF marker, since the
      // row is GGUF but the 2024 catalogue holds no header (so no context length) for it.
      const header = r["gguf"] as ModelData["gguf"] | undefined;
      const data: ModelData = { ...toModelData(m), gguf: header ?? { total: m.params ?? 0, context_length: UNKNOWN_GGUF_CONTEXT_LENGTH } };
      const files = ggufFilesWithQuant(m).map((f) => f.rfilename);
      if (files.length) withFiles++;
      for (const filepath of [undefined, files[0]]) {
        const expected = Object.entries(apps)
          .filter(([, app]) => app.displayOnModelPage(data))
          .map(([key, app]) =>
            "deeplink" in app
              ? { key, deeplink: app.deeplink(data, filepath).href }
              : // With the picked file's tag where the library left its placeholder (vLLM's Docker command).
                { key, snippets: withQuantTag(normaliseLocalAppSnippets(app.snippet(data, filepath), app.prettyLabel), filepath) },
          );
        const actual = getLocalAppSnippets(m, filepath === undefined ? {} : { filepath }).map((e) =>
          e.kind === "deeplink" ? { key: e.key, deeplink: e.deeplink } : { key: e.key, snippets: e.snippets },
        );
        expect(actual, `${id} ${filepath ?? ""}`).toEqual(expected);
        expect(actual.map((a) => a.key), id).toEqual(expect.arrayContaining(["llama.cpp", "ollama", "lmstudio", "jan"]));
      }
    }
    // Most 2024 list rows carry no file list; those that do were checked with a file picked too.
    expect(withFiles).toBeGreaterThan(0);
    expect(models.get("lmstudio-community/Meta-Llama-3-8B-Instruct-GGUF")).toBeDefined();
    expect(getLocalAppSnippets(models.get("lmstudio-community/Meta-Llama-3-8B-Instruct-GGUF")!).map((e) => e.key)).toEqual(
      expect.arrayContaining(["llama.cpp", "ollama", "lmstudio", "jan"]),
    );
  });
});

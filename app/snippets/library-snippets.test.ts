import { MODEL_LIBRARIES_UI_ELEMENTS } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { fixtureById, loadLibraryFixtures, slug } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import { getLibrarySnippets, isModelLibraryKey, libraryUiElement } from "#app/snippets/library-snippets.ts";
import { deriveTransformersInfo } from "#app/catalog/transformers-info.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";

const fixtures = loadLibraryFixtures();
const catalogOf = (id: string) => fixtureById(fixtures.map((f) => f.catalog), id);

function golden(id: string, snippets: string[]): string {
  return snippets.map((snippet, index) => `===== snippet ${index + 1} of ${snippets.length} (${id}) =====\n${snippet}\n`).join("");
}

describe("getLibrarySnippets", () => {
  const withSnippets = fixtures.filter((f) => {
    const name = f.catalog.libraryName;
    return name !== null && libraryUiElement(name)?.snippets !== undefined;
  });

  it("covers the representative libraries", () => {
    const libraries = new Set(withSnippets.map((f) => f.catalog.libraryName));
    for (const library of ["transformers", "diffusers", "sentence-transformers", "timm", "peft", "mlx", "keras"]) {
      expect(libraries).toContain(library);
    }
  });

  for (const fixture of withSnippets) {
    const { catalog, hub } = fixture;
    it(`${catalog.libraryName}: ${catalog.id} returns exactly what the library returns for the Hub's own object`, async () => {
      const name = catalog.libraryName ?? "";
      expect(isModelLibraryKey(name)).toBe(true);
      const fromHub = libraryUiElement(name)?.snippets?.(hub);
      const result = getLibrarySnippets(catalog);
      expect(result).not.toBeNull();
      expect(result?.error).toBeUndefined();
      expect(result?.snippets.length).toBeGreaterThan(0);
      // Same strings, same count, same order: nothing trimmed, re-indented or re-wrapped.
      expect(result?.snippets).toStrictEqual(fromHub);
      await expect(golden(catalog.id, result?.snippets ?? [])).toMatchFileSnapshot(
        `./__snapshots__/library/${slug(catalog.id)}.txt`,
      );
    });
  }

  it("reports the library's labels and links", () => {
    const result = getLibrarySnippets(catalogOf("Qwen/Qwen2-0.5B-Instruct"));
    expect(result).toMatchObject({
      library: "transformers",
      prettyLabel: MODEL_LIBRARIES_UI_ELEMENTS.transformers.prettyLabel,
      repoUrl: MODEL_LIBRARIES_UI_ELEMENTS.transformers.repoUrl,
      docsUrl: MODEL_LIBRARIES_UI_ELEMENTS.transformers.docsUrl,
    });
  });

  it("keeps the chat example with its 4-space and tab indentation for a conversational transformers model", () => {
    const [pipeline, direct] = getLibrarySnippets(catalogOf("Qwen/Qwen2-0.5B-Instruct"))?.snippets ?? [];
    expect(pipeline).toContain('messages = [\n    {"role": "user", "content": "Who are you?"},\n]\npipe(messages)');
    expect(direct).toContain("inputs = tokenizer.apply_chat_template(\n\tmessages,\n\tadd_generation_prompt=True,");
  });

  it("prints the chat example when the chat template lives only in the catalogue's own column", () => {
    const model = catalogOf("Qwen/Qwen2-0.5B-Instruct");
    const config = { ...model.config, tokenizer_config: { eos_token: "<|im_end|>" } };
    const withTemplateColumnOnly = { ...model, config };
    const withoutTemplate = { ...model, config, chatTemplate: null };
    expect(getLibrarySnippets(withTemplateColumnOnly)?.snippets.join("\n")).toContain("apply_chat_template");
    expect(getLibrarySnippets(withoutTemplate)?.snippets.join("\n")).not.toContain("apply_chat_template");
  });

  it("adds trust_remote_code for custom-code models, as the library does", () => {
    expect(getLibrarySnippets(catalogOf("Qwen/Qwen-VL-Chat"))?.snippets.join("\n")).toContain("trust_remote_code=True");
  });

  it("returns an empty list for a known library that defines no snippets", () => {
    const result = getLibrarySnippets(catalogOf("google/timesfm-1.0-200m"));
    expect(result).toEqual({
      library: "timesfm",
      prettyLabel: MODEL_LIBRARIES_UI_ELEMENTS.timesfm.prettyLabel,
      repoUrl: MODEL_LIBRARIES_UI_ELEMENTS.timesfm.repoUrl,
      snippets: [],
    });
  });

  it("returns null for libraries @huggingface/tasks does not know and for models without a library", () => {
    expect(getLibrarySnippets(catalogOf("QuantFactory/TextBase-7B-v0.1-GGUF"))).toBeNull(); // "llama.cpp"
    expect(getLibrarySnippets(catalogOf("01-ai/Yi-VL-6B"))).toBeNull(); // "pytorch"
    expect(getLibrarySnippets(catalogOf("Qwen/Qwen2-0.5B-Instruct-GGUF"))).toBeNull(); // no library_name
  });

  it("never treats object prototype names as libraries", () => {
    const model = catalogOf("timm/resnet50.a1_in1k");
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(getLibrarySnippets({ ...model, libraryName: name })).toBeNull();
    }
  });
});

describe("transformers code for a repo of GGUF weights only", () => {
  // bartowski/gemma-2-27b-it-GGUF as the bundled catalogue holds it: a list row, no file list.
  const tags = ["transformers", "gguf", "text-generation", "base_model:google/gemma-2-27b-it", "license:gemma", "endpoints_compatible", "region:us"];
  const info = deriveTransformersInfo({ config: null, tags, pipelineTag: "text-generation", libraryName: "transformers" })?.info ?? null;
  const listRow: CatalogModel = {
    ...catalogOf("Qwen/Qwen2-0.5B-Instruct"),
    id: "bartowski/gemma-2-27b-it-GGUF",
    author: "bartowski",
    pipelineTag: "text-generation",
    tags,
    config: null,
    siblings: [],
    safetensors: null,
    gguf: null,
    chatTemplate: null,
    cardData: null,
    widgetData: null,
    transformersInfo: info === null ? null : { ...info },
  };

  it("loads the chosen file with gguf_file=, in the pipeline and the direct load", () => {
    const result = getLibrarySnippets(listRow, { ggufFile: "gemma-2-27b-it-Q4_K_M.gguf" });
    expect(result?.ggufFile).toBe("gemma-2-27b-it-Q4_K_M.gguf");
    expect(result?.snippets).toEqual([
      '# Use a pipeline as a high-level helper\nfrom transformers import pipeline\n\npipe = pipeline("text-generation", model="bartowski/gemma-2-27b-it-GGUF", model_kwargs={"gguf_file": "gemma-2-27b-it-Q4_K_M.gguf"})',
      '# Load model directly\nfrom transformers import AutoModelForCausalLM\nmodel = AutoModelForCausalLM.from_pretrained("bartowski/gemma-2-27b-it-GGUF", gguf_file="gemma-2-27b-it-Q4_K_M.gguf", dtype="auto")',
    ]);
  });

  it("writes the library's {{GGUF_FILE}} placeholder when no file is known", () => {
    const result = getLibrarySnippets(listRow);
    expect(result?.ggufFile).toBe("{{GGUF_FILE}}");
    expect(result?.snippets[1]).toContain('.from_pretrained("bartowski/gemma-2-27b-it-GGUF", gguf_file="{{GGUF_FILE}}", dtype="auto")');
  });

  it("passes gguf_file to the tokenizer too, and leaves repos with other weights alone", () => {
    const withTokenizer = { ...listRow, transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" } };
    expect(getLibrarySnippets(withTokenizer, { ggufFile: "m.gguf" })?.snippets[1]).toContain('tokenizer = AutoTokenizer.from_pretrained("bartowski/gemma-2-27b-it-GGUF", gguf_file="m.gguf")');
    const alsoSafetensors = { ...listRow, tags: [...tags, "safetensors"] };
    expect(getLibrarySnippets(alsoSafetensors, { ggufFile: "m.gguf" })?.snippets.join("\n")).not.toContain("gguf_file");
    expect(getLibrarySnippets(alsoSafetensors)?.ggufFile).toBeUndefined();
  });
});

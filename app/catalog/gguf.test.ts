import { describe, expect, it } from "vitest";
import { defaultGgufFile, ggufFilesWithQuant, ggufHeaderOf, ggufSignals, holdsOnlyGgufWeights, isGgufRepo } from "#app/catalog/gguf.ts";
import { toHubModelInfo } from "#app/catalog/hub-api.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { fixtureById, loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import { buildGgufPanel, ggufFileOptions } from "#app/model-page/gguf.server.ts";

const fixtures = loadLibraryFixtures().map((f) => f.catalog);
const qwen = fixtureById(fixtures, "Qwen/Qwen2-0.5B-Instruct-GGUF");
const plain = fixtureById(fixtures, "timm/resnet50.a1_in1k");
const blank: CatalogModel = { ...plain, libraryName: null, tags: [], siblings: [], gguf: null, chatTemplate: null };

describe("recognising a GGUF repo", () => {
  it("takes the library, the tags, .gguf files or an imported header, each on its own", () => {
    expect(ggufSignals({ ...blank, libraryName: "gguf" })).toEqual(["library"]);
    expect(ggufSignals({ ...blank, tags: ["gguf"] })).toEqual(["tags"]);
    expect(ggufSignals({ ...blank, siblings: [{ rfilename: "sub/Model.Q4_K_M.GGUF", size: 1 }] })).toEqual(["files"]);
    expect(ggufSignals({ ...blank, gguf: { architecture: "llama", context_length: 4096 } })).toEqual(["header"]);
    expect(ggufSignals(qwen)).toEqual(["tags", "files", "header"]);
    expect(isGgufRepo(blank)).toBe(false);
    expect(isGgufRepo(plain)).toBe(false);
  });

  it("does not take a malformed header as evidence", () => {
    expect(ggufHeaderOf({ gguf: { context_length: "4096", architecture: 7 } })).toBeNull();
    expect(isGgufRepo({ ...blank, gguf: { note: "x" } })).toBe(false);
  });
});

describe("the header", () => {
  it("keeps the Hub's six keys with the Hub's types and nothing else", () => {
    expect(ggufHeaderOf({ gguf: { total: 10, architecture: "llama", context_length: 4096, chat_template: "t", bos_token: null, eos_token: "</s>", internal: 1 } })).toEqual({
      total: 10,
      architecture: "llama",
      context_length: 4096,
      chat_template: "t",
      bos_token: null,
      eos_token: "</s>",
    });
    expect(ggufHeaderOf({ gguf: { architecture: "llama", context_length: -1 } })).toEqual({ architecture: "llama" });
  });

  it("is served as the Hub's `gguf` field by /api/models/{id}, by default and on expand", () => {
    const info = toHubModelInfo(qwen, [], []);
    expect(info["gguf"]).toEqual(ggufHeaderOf(qwen));
    expect(info["gguf"]).toMatchObject({ architecture: "qwen2", context_length: 32768, total: 494032768 });
    expect(toHubModelInfo(qwen, ["gguf"], [])).toEqual({ _id: info["_id"], id: qwen.id, gguf: info["gguf"] });
    // Recognised by tags alone: no header, so no field, and never a made-up context length.
    expect("gguf" in toHubModelInfo({ ...blank, tags: ["gguf"] }, [], [])).toBe(false);
  });
});

describe("files and quantisations", () => {
  it("labels each file as LOCAL_APPS parses it and orders them biggest first", () => {
    const model = {
      siblings: [
        { rfilename: "README.md", size: 10 },
        { rfilename: "m.Q2_K.gguf", size: 2_000 },
        { rfilename: "m-f16.gguf", size: 16_000 },
        { rfilename: "m.Q4_K_M.gguf", size: 4_900_000_000 },
        { rfilename: "m.UD-Q4_K_XL.gguf", size: null },
        { rfilename: "mmproj.gguf", size: 600 },
      ],
    };
    expect(ggufFilesWithQuant(model).map((f) => [f.rfilename, f.quant, f.size])).toEqual([
      ["m-f16.gguf", "F16", 16_000],
      ["m.UD-Q4_K_XL.gguf", "UD-Q4_K_XL", null],
      ["m.Q4_K_M.gguf", "Q4_K_M", 4_900_000_000],
      ["m.Q2_K.gguf", "Q2_K", 2_000],
      ["mmproj.gguf", null, 600],
    ]);
    expect(ggufFileOptions(model)[2]).toEqual({ name: "m.Q4_K_M.gguf", label: "Q4_K_M · 4.9 GB (m.Q4_K_M.gguf)" });
    expect(ggufFileOptions(model)[1]?.label).toBe("UD-Q4_K_XL (m.UD-Q4_K_XL.gguf)");
  });

  it("lists a split model once, by its first part, with every part's size; names a bare Q3_K and an fp16 file", () => {
    const model = {
      siblings: [
        { rfilename: "big-Q4_K_M-00002-of-00002.gguf", size: 3_000 },
        { rfilename: "big-Q4_K_M-00001-of-00002.gguf", size: 5_000 },
        { rfilename: "big-Q8_0-00001-of-00002.gguf", size: 9_000 },
        { rfilename: "big-Q8_0-00002-of-00002.gguf", size: null },
        { rfilename: "small-Q3_K.gguf", size: 1_000 },
        { rfilename: "qwen2-72b-instruct-fp16-00001-of-00002.gguf", size: 70_000 },
        { rfilename: "qwen2-72b-instruct-fp16-00002-of-00002.gguf", size: 75_000 },
        { rfilename: "mystery.gguf", size: 10 },
      ],
    };
    expect(ggufFilesWithQuant(model).map((f) => [f.rfilename, f.quant, f.size, f.parts])).toEqual([
      ["qwen2-72b-instruct-fp16-00001-of-00002.gguf", "F16", 145_000, 2],
      ["big-Q8_0-00001-of-00002.gguf", "Q8_0", null, 2],
      ["big-Q4_K_M-00001-of-00002.gguf", "Q4_K_M", 8_000, 2],
      ["small-Q3_K.gguf", "Q3_K", 1_000, 1],
      ["mystery.gguf", null, 10, 1],
    ]);
    expect(ggufFileOptions(model)[2]?.label).toBe("Q4_K_M · 8.0 kB · 2 parts (big-Q4_K_M-00001-of-00002.gguf)");
  });
});

describe("the GGUF panel", () => {
  it("shows what the header holds and each file with its quantisation", () => {
    const panel = buildGgufPanel(qwen);
    expect(panel).toMatchObject({ headerImported: true, architecture: "qwen2", contextLength: "32,768", params: "494M" });
    // "fp16" is not a label the library parses (it knows F16); Qwen's name for GGML's F16, first as the biggest.
    expect(panel?.files.map((f) => f.quant)).toEqual(["F16", "Q8_0", "Q6_K", "Q5_K_M", "Q5_0", "Q4_K_M", "Q4_0", "Q3_K_M", "Q2_K"]);
    expect(panel?.files[0]?.href).toBe("/Qwen/Qwen2-0.5B-Instruct-GGUF?gguf=qwen2-0_5b-instruct-fp16.gguf");
  });

  it("previews the GGUF template on the tab when it is the model's own, and compares it in the lab otherwise", () => {
    const own = buildGgufPanel({ ...qwen, chatTemplate: String(qwen.gguf?.["chat_template"]) });
    expect(own?.chatTemplate?.href).toBe("/Qwen/Qwen2-0.5B-Instruct-GGUF?tab=chat-template");
    const other = buildGgufPanel({ ...qwen, chatTemplate: "{{ messages }}" });
    expect(other?.chatTemplate?.href).toBe(
      "/chat-template?a_model=Qwen%2FQwen2-0.5B-Instruct-GGUF&compare=1&b_model=Qwen%2FQwen2-0.5B-Instruct-GGUF&b_template=%40gguf",
    );
  });

  it("is absent where the catalogue holds neither header nor files, and says so when only files are known", () => {
    expect(buildGgufPanel({ ...blank, tags: ["gguf"] })).toBeNull();
    expect(buildGgufPanel(plain)).toBeNull();
    const filesOnly = buildGgufPanel({ ...blank, siblings: [{ rfilename: "x.Q8_0.gguf", size: null }] });
    expect(filesOnly).toMatchObject({ headerImported: false, architecture: null, contextLength: null, params: null, chatTemplate: null });
    expect(filesOnly?.files).toEqual([{ name: "x.Q8_0.gguf", quant: "Q8_0", size: null, parts: 1, href: "/timm/resnet50.a1_in1k?gguf=x.Q8_0.gguf" }]);
  });
});

describe("the file the commands start with", () => {
  it("is the Q4_K_M file when there is one, else the first listed, else none", () => {
    expect(defaultGgufFile(ggufFilesWithQuant(qwen))?.rfilename).toBe("qwen2-0_5b-instruct-q4_k_m.gguf");
    const noQ4 = { siblings: [{ rfilename: "m.Q2_K.gguf", size: 2 }, { rfilename: "m.Q8_0.gguf", size: 8 }] };
    expect(defaultGgufFile(ggufFilesWithQuant(noQ4))?.rfilename).toBe("m.Q8_0.gguf");
    expect(defaultGgufFile(ggufFilesWithQuant(blank))).toBeNull();
  });
});

describe("repos whose only weights are GGUF files", () => {
  const files = (...names: string[]) => names.map((rfilename) => ({ rfilename, size: null }));

  it("reads the file list when there is one", () => {
    expect(holdsOnlyGgufWeights({ ...blank, siblings: files("README.md", "config.json", "m.Q4_K_M.gguf") })).toBe(true);
    expect(holdsOnlyGgufWeights({ ...blank, siblings: files("m.Q4_K_M.gguf", "model-00001-of-00002.safetensors") })).toBe(false);
    expect(holdsOnlyGgufWeights({ ...blank, siblings: files("m.Q4_K_M.gguf", "pytorch_model.bin") })).toBe(false);
    expect(holdsOnlyGgufWeights(qwen)).toBe(true);
  });

  it("reads the Hub's format tags for a list row without files", () => {
    expect(holdsOnlyGgufWeights({ ...blank, tags: ["transformers", "gguf"] })).toBe(true);
    expect(holdsOnlyGgufWeights({ ...blank, tags: ["transformers", "safetensors", "gguf"] })).toBe(false);
    expect(holdsOnlyGgufWeights({ ...blank, tags: ["transformers", "pytorch"] })).toBe(false);
  });
});

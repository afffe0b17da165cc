import type { LocalApp, LocalAppSnippet, ModelData } from "@huggingface/tasks";
import { LOCAL_APPS } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { fixtureById, loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import type { LocalAppEntry } from "#app/snippets/local-app-snippets.ts";
import {
  getLocalAppSnippets,
  isSafeDeeplink,
  normaliseLocalAppSnippets,
  toLocalAppModelData,
  UNKNOWN_GGUF_CONTEXT_LENGTH,
  withQuantTag,
} from "#app/snippets/local-app-snippets.ts";
import { isGgufRepo } from "#app/catalog/gguf.ts";
import { ggufFilesWithQuant } from "#app/catalog/gguf.ts";

const fixtures = loadLibraryFixtures();
const catalogOf = (id: string) => fixtureById(fixtures.map((f) => f.catalog), id);
const apps: Record<string, LocalApp> = LOCAL_APPS;

/** What the library itself gives for the Hub's own object, app by app. */
function libraryView(hub: ModelData, filepath?: string) {
  return Object.entries(apps)
    .filter(([, app]) => app.displayOnModelPage(hub))
    .map(([key, app]) =>
      "deeplink" in app
        ? { key, deeplink: app.deeplink(hub, filepath).href }
        : { key, raw: app.snippet(hub, filepath) },
    );
}

function flatten(raw: string | string[] | LocalAppSnippet | LocalAppSnippet[]): string[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.flatMap((item) =>
    typeof item === "string" ? [item] : [item.title, item.setup ?? "", ...[item.content].flat()],
  );
}

function golden(entries: LocalAppEntry[]): string {
  return entries
    .map((entry) => {
      const head = `===== ${entry.key} (${entry.prettyLabel}, ${entry.kind}) =====\n`;
      if (entry.kind === "deeplink") return `${head}${entry.deeplink ?? ""}\n`;
      return (
        head +
        (entry.snippets ?? [])
          .map((block) => {
            const setup = block.setup === undefined ? "" : `--- setup\n${block.setup}\n`;
            const content = [block.content].flat().map((c) => `--- content\n${c}\n`).join("");
            return `--- title: ${block.title}\n${setup}${content}`;
          })
          .join("")
      );
    })
    .join("");
}

describe("getLocalAppSnippets", () => {
  for (const { catalog, hub: recorded } of fixtures) {
    it(`${catalog.id}: same apps, snippets and deeplinks as the library on the Hub's object`, () => {
      // A 2024 Hub object of a GGUF repo may predate the Hub's `gguf` field; today's Hub sets it.
      const hub: ModelData =
        recorded.gguf === undefined && isGgufRepo(catalog)
          ? { ...recorded, gguf: { total: catalog.params ?? 0, context_length: UNKNOWN_GGUF_CONTEXT_LENGTH } }
          : recorded;
      const expected = libraryView(hub);
      const entries = getLocalAppSnippets(catalog);
      expect(entries.map((e) => e.key)).toEqual(expected.map((e) => e.key));
      for (const [index, entry] of entries.entries()) {
        const want = expected[index];
        if (want !== undefined && "deeplink" in want) {
          expect(entry.kind).toBe("deeplink");
          expect(entry.deeplink).toBe(want.deeplink);
        } else if (want !== undefined) {
          expect(entry.kind).toBe("snippets");
          // Every title, setup and command survives byte for byte, in order.
          const texts = (entry.snippets ?? []).flatMap((b) => [b.title, b.setup ?? "", ...[b.content].flat()]);
          const raw = flatten(want.raw);
          for (const text of raw) expect(texts).toContain(text);
        }
      }
    });
  }

  it("shows the GGUF apps for a GGUF repo and keeps the library's placeholders", async () => {
    const entries = getLocalAppSnippets(catalogOf("Qwen/Qwen2-0.5B-Instruct-GGUF"));
    const keys = entries.map((e) => e.key);
    expect(keys).toEqual(
      expect.arrayContaining(["llama.cpp", "node-llama-cpp", "lmstudio", "localai", "jan", "ollama", "docker-model-runner"]),
    );
    // Qwen2's template has no tool calling, so the Pi agent is not offered.
    expect(keys).not.toContain("pi");
    const llamaCpp = entries.find((e) => e.key === "llama.cpp");
    expect(llamaCpp?.snippets?.[0]).toEqual({
      title: "Install from brew",
      setup: "brew install llama.cpp",
      content: [
        "# Start a local OpenAI-compatible server with a web UI:\nllama-server -hf Qwen/Qwen2-0.5B-Instruct-GGUF:{{QUANT_TAG}}",
        "# Run inference directly in the terminal:\nllama-cli -hf Qwen/Qwen2-0.5B-Instruct-GGUF:{{QUANT_TAG}}",
      ],
    });
    const ollama = entries.find((e) => e.key === "ollama");
    expect(ollama?.snippets).toEqual([
      { title: "Ollama", content: "ollama run hf.co/Qwen/Qwen2-0.5B-Instruct-GGUF:{{QUANT_TAG}}" },
    ]);
    await expect(golden(entries)).toMatchFileSnapshot("./__snapshots__/local-apps/Qwen__Qwen2-0.5B-Instruct-GGUF.txt");
  });

  it("recognises a GGUF repo with no imported header by its library, tags or files", () => {
    const base = catalogOf("QuantFactory/TextBase-7B-v0.1-GGUF");
    expect(base.gguf).toBeNull();
    const blank = { ...base, libraryName: null, tags: [], siblings: [], gguf: null };
    const variants = {
      library: { ...blank, libraryName: "gguf" },
      tags: { ...blank, tags: ["gguf"] },
      files: { ...blank, siblings: [{ rfilename: "m.Q4_K_M.gguf", size: null }] },
    };
    for (const [signal, model] of Object.entries(variants)) {
      const keys = getLocalAppSnippets(model).map((e) => e.key);
      expect(keys, signal).toEqual(expect.arrayContaining(["llama.cpp", "lmstudio", "jan", "ollama"]));
    }
    expect(getLocalAppSnippets(blank).map((e) => e.key)).not.toContain("llama.cpp");
    // The marker stays inside the object handed to LOCAL_APPS; the stored header is untouched.
    expect(toLocalAppModelData(variants.tags).gguf?.context_length).toBe(UNKNOWN_GGUF_CONTEXT_LENGTH);
    expect(variants.tags.gguf).toBeNull();
    // A real header's context length is passed through as it is.
    const qwen = catalogOf("Qwen/Qwen2-0.5B-Instruct-GGUF");
    expect(toLocalAppModelData(qwen).gguf?.context_length).toBe(32768);
  });

  it("fills the quant tag when a file is picked, as the library does", () => {
    const model = catalogOf("Qwen/Qwen2-0.5B-Instruct-GGUF");
    const file = "qwen2-0_5b-instruct-q4_k_m.gguf";
    expect(ggufFilesWithQuant(model).map((f) => f.rfilename)).toContain(file);
    const entries = getLocalAppSnippets(model, { filepath: file });
    expect(entries.find((e) => e.key === "ollama")?.snippets?.[0]?.content).toBe(
      "ollama run hf.co/Qwen/Qwen2-0.5B-Instruct-GGUF:Q4_K_M",
    );
    expect(entries.find((e) => e.key === "lmstudio")?.deeplink).toBe(
      `lmstudio://open_from_hf?model=Qwen/Qwen2-0.5B-Instruct-GGUF&file=${file}`,
    );
    const expected = libraryView(fixtureById(fixtures.map((f) => f.hub), "Qwen/Qwen2-0.5B-Instruct-GGUF"), file);
    expect(entries.map((e) => e.key)).toEqual(expected.map((e) => e.key));
    // vLLM's Docker command, which the library writes without the file, gets the same tag.
    const commands = entries.flatMap((e) => (e.snippets ?? []).flatMap((b) => (Array.isArray(b.content) ? b.content : [b.content])));
    expect(commands).toContain("docker model run hf.co/Qwen/Qwen2-0.5B-Instruct-GGUF:Q4_K_M");
    expect(commands.join("\n")).not.toContain("{{QUANT_TAG}}");
    // Without a file, or with one whose name carries no label, the library's placeholder stays.
    expect(withQuantTag([{ title: "t", content: "x:{{QUANT_TAG}}" }], undefined)).toEqual([{ title: "t", content: "x:{{QUANT_TAG}}" }]);
    expect(withQuantTag([{ title: "t", content: ["x:{{QUANT_TAG}}"] }], "model.gguf")).toEqual([{ title: "t", content: ["x:{{QUANT_TAG}}"] }]);
  });

  it("offers vLLM, SGLang, TGI and Docker Model Runner for an AWQ chat model, with the curl body's tabs intact", async () => {
    const entries = getLocalAppSnippets(catalogOf("Qwen/Qwen2-72B-Instruct-AWQ"));
    expect(entries.map((e) => e.key)).toEqual(["vllm", "sglang", "tgi", "docker-model-runner"]);
    const vllm = entries.find((e) => e.key === "vllm");
    const call = [vllm?.snippets?.[0]?.content ?? []].flat()[1] ?? "";
    expect(call).toContain('\t--data \'{\n\t\t"model": "Qwen/Qwen2-72B-Instruct-AWQ",\n\t\t"messages": [');
    const sglang = entries.find((e) => e.key === "sglang");
    expect(sglang?.snippets?.[1]?.setup).toContain('    --shm-size 32g \\\n');
    await expect(golden(entries)).toMatchFileSnapshot("./__snapshots__/local-apps/Qwen__Qwen2-72B-Instruct-AWQ.txt");
  });

  it("offers the image apps' deeplinks for a diffusers text-to-image model", async () => {
    const entries = getLocalAppSnippets(catalogOf("6DammK9/AstolfoMix"));
    expect(entries.map((e) => [e.key, e.kind, e.macOSOnly])).toEqual([
      ["jellybox", "deeplink", false],
      ["drawthings", "deeplink", true],
      ["diffusionbee", "deeplink", true],
    ]);
    await expect(golden(entries)).toMatchFileSnapshot("./__snapshots__/local-apps/6DammK9__AstolfoMix.txt");
  });

  it("offers LM Studio for an MLX repo", () => {
    const entries = getLocalAppSnippets(catalogOf("3thn/dolphin-2.9-llama3-8b-4bit"));
    expect(entries).toEqual([
      {
        key: "lmstudio",
        prettyLabel: "LM Studio",
        docsUrl: "https://lmstudio.ai",
        mainTask: "text-generation",
        macOSOnly: false,
        comingSoon: false,
        kind: "deeplink",
        deeplink: "lmstudio://open_from_hf?model=3thn/dolphin-2.9-llama3-8b-4bit",
      },
    ]);
  });

  it("offers nothing for models no local app handles", () => {
    expect(getLocalAppSnippets(catalogOf("timm/resnet50.a1_in1k"))).toEqual([]);
    expect(getLocalAppSnippets(catalogOf("5aket/foodia"))).toEqual([]);
  });
});

describe("normaliseLocalAppSnippets", () => {
  it("keeps titled snippets as they are", () => {
    const raw: LocalAppSnippet[] = [
      { title: "A", setup: "pip install a", content: ["one\n    two", "three"] },
      { title: "B", content: "four" },
    ];
    expect(normaliseLocalAppSnippets(raw, "App")).toEqual(raw);
    expect(normaliseLocalAppSnippets(raw[1] ?? raw, "App")).toEqual([{ title: "B", content: "four" }]);
  });

  it("gives bare commands the app's name as title, without touching the text", () => {
    expect(normaliseLocalAppSnippets("run\tit  ", "App")).toEqual([{ title: "App", content: "run\tit  " }]);
    expect(normaliseLocalAppSnippets(["a", "b"], "App")).toEqual([{ title: "App", content: ["a", "b"] }]);
  });
});

describe("isSafeDeeplink", () => {
  it("accepts app schemes and https", () => {
    for (const href of [
      "lmstudio://open_from_hf?model=a/b",
      "jan://models/huggingface/a/b",
      "llamacpp://a/b",
      "msty://models/search/hf/a/b",
      "https://drawthings.ai/import/diffusers/pipeline.from_pretrained?repo_id=a/b",
    ]) {
      expect(isSafeDeeplink(href), href).toBe(true);
    }
  });

  it("refuses scripts, data, local files and relative links", () => {
    for (const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "java\tscript:alert(1)",
      " javascript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
      "blob:https://example.com/uuid",
      "/relative/path",
      "not a url",
      "",
    ]) {
      expect(isSafeDeeplink(href), JSON.stringify(href)).toBe(false);
    }
  });
});

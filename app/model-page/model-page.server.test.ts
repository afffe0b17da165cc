import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { setDb } from "#app/db/db.server.ts";
import { ModelHeader } from "#app/model-page/model-header.tsx";
import { ModelFiles } from "#app/model-page/model-files.tsx";
import { importItems } from "#app/import/importer.server.ts";
import { testDialects, type TestDatabase } from "#tests/support/test-databases.ts";
import { htmlWithToken, maskTokenForDisplay } from "#app/snippets/snippets-panel.tsx";
import { isSnippetToken } from "#app/utils/visitor-token.ts";
import { getInferenceSnippetsFor, maskedTokenValue, TOKEN_PLACEHOLDER } from "#app/snippets/inference-snippets.ts";
import { supportedProvidersFor } from "#app/snippets/providers.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";
import { buildUseThisModel, fileUrlResolver, guessSnippetLanguage, loadModelPage, type SummaryLine } from "#app/model-page/model-page.server.ts";
import { fixtureById, loadInferenceFixtures, loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import { buildFilesView, filesViewStatus } from "#app/model-page/files.server.ts";
import { buildInferencePanel, parseInferenceState } from "#app/snippets/inference-panel.server.ts";

const models = loadInferenceFixtures();
const TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

/** Text content of shiki HTML: tags dropped, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&");
}

describe("saved tokens are filled in on the client", () => {
  it("gives exactly the library's output for the token, for every fixture model, provider and streaming mode", () => {
    let compared = 0;
    for (const model of models) {
      for (const provider of supportedProvidersFor(model)) {
        for (const streaming of [false, true]) {
          const placeholder = getInferenceSnippetsFor(model, { provider, streaming });
          const real = getInferenceSnippetsFor(model, { provider, streaming, accessToken: TOKEN });
          expect(real.languages.length).toBe(placeholder.languages.length);
          placeholder.languages.forEach((lang, i) => {
            lang.clients.forEach((client, j) => {
              expect(client.content.split(TOKEN_PLACEHOLDER).join(TOKEN)).toBe(real.languages[i]!.clients[j]!.content);
              compared++;
            });
          });
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("masks the same way as the snippets module", () => {
    for (const t of [TOKEN, "hf_short", "hf_123456789", "hf_x"]) expect(maskTokenForDisplay(t)).toBe(maskedTokenValue(t));
    expect(isSnippetToken(TOKEN)).toBe(true);
    expect(isSnippetToken("sk-abc123456")).toBe(false);
    expect(isSnippetToken('hf_abc"</script>')).toBe(false);
  });

  it("swaps the placeholder in highlighted HTML without changing the rest of the text", () => {
    const model = models.find((m) => m.id === "meta-llama/Llama-3.3-70B-Instruct")!;
    const panel = buildInferencePanel(model, parseInferenceState(new URLSearchParams("provider=together&stream=1"), model));
    for (const lang of panel.languages) {
      for (const c of lang.clients) {
        const shown = htmlWithToken(c.html, c.text, TOKEN_PLACEHOLDER, maskTokenForDisplay(TOKEN));
        expect(textOf(shown)).toBe(c.text.split(TOKEN_PLACEHOLDER).join(maskTokenForDisplay(TOKEN)));
        expect(shown).not.toContain(TOKEN);
      }
    }
  });
});

describe("inference panel state from the query string", () => {
  const llama = models.find((m) => m.id === "meta-llama/Llama-3.3-70B-Instruct")!;
  const bert = models.find((m) => m.id === "google-bert/bert-base-uncased")!;

  it("defaults to the first offered provider, JavaScript, no streaming", () => {
    const { state, inputError } = parseInferenceState(new URLSearchParams(), llama);
    expect(state).toEqual({ provider: supportedProvidersFor(llama)[0], streaming: false, billTo: "", lang: "js" });
    expect(inputError).toBeNull();
  });

  it("reports and ignores unusable values", () => {
    const { state, inputError } = parseInferenceState(new URLSearchParams("provider=nope&bill_to=a b&lang=cobol"), llama);
    expect(state.provider).toBe(supportedProvidersFor(llama)[0]);
    expect(state.billTo).toBe("");
    expect(state.lang).toBe("js");
    expect(inputError).toMatch(/nope.*Bill to.*cobol/s);
  });

  it("offers streaming only to conversational models", () => {
    expect(parseInferenceState(new URLSearchParams("stream=1"), llama).state.streaming).toBe(true);
    expect(parseInferenceState(new URLSearchParams("stream=1"), bert).state.streaming).toBe(false);
  });

  it("shows exactly the library text, highlighted, with bill-to applied", () => {
    const panel = buildInferencePanel(llama, parseInferenceState(new URLSearchParams("provider=groq&bill_to=acme-org"), llama));
    const direct = getInferenceSnippetsFor(llama, { provider: "groq", streaming: false, billTo: "acme-org" });
    const flat = (l: typeof panel.languages) => l.flatMap((x) => x.clients.map((c) => c.text)).sort();
    expect(flat(panel.languages)).toEqual(direct.languages.flatMap((x) => x.clients.map((c) => c.content)).sort());
    expect(panel.languages.map((l) => l.language)).toEqual(["js", "python", "sh"]);
    for (const lang of panel.languages) for (const c of lang.clients) expect(textOf(c.html)).toBe(c.text);
    expect(flat(panel.languages).some((t) => t.includes("acme-org"))).toBe(true);
    // groq chat through huggingface.js was executed against the simulator.
    expect(panel.languages.find((l) => l.language === "js")!.clients.find((c) => c.client === "huggingface.js")!.verified).toBe(true);
  });
});

describe("relative card URLs", () => {
  const resolve = fileUrlResolver("https://hub.example", "org/model", "abc123");
  it("point images at resolve/ and links at blob/ for the revision", () => {
    expect(resolve("images/arch.png", "image")).toBe("https://hub.example/org/model/resolve/abc123/images/arch.png");
    expect(resolve("./config.json", "link")).toBe("https://hub.example/org/model/blob/abc123/config.json");
    expect(resolve("/LICENSE", "link")).toBe("https://hub.example/org/model/blob/abc123/LICENSE");
    expect(resolve("my file.md", "link")).toBe("https://hub.example/org/model/blob/abc123/my%20file.md");
    expect(resolve("../other/x", "link")).toBeNull();
  });
});

describe("snippet language guess changes only colours", () => {
  it("keeps every character, 4-space indentation included", () => {
    const samples = [
      "from transformers import pipeline\n\npipe = pipeline(\"text-generation\")\nfor x in y:\n    print(x)\n",
      "pip install -U diffusers\n",
      'import { pipeline } from "@huggingface/transformers";\n\nconst p = await pipeline("x");',
      "\tmixed\ttabs  and trailing  \n\n",
    ];
    for (const s of samples) expect(textOf(highlightCode(s, guessSnippetLanguage(s)))).toBe(s);
    expect(guessSnippetLanguage(samples[0]!)).toBe("python");
    expect(guessSnippetLanguage(samples[1]!)).toBe("shellscript");
    expect(guessSnippetLanguage(samples[2]!)).toBe("javascript");
  });
});

describe("files tab", () => {
  const base = models[0]!;
  const model = {
    ...base,
    siblings: [
      { rfilename: "config.json", size: 700 },
      { rfilename: "model.safetensors", size: 5_000_000 },
      { rfilename: "README.md", size: null },
    ],
    config: { architectures: ["LlamaForCausalLM"], model_type: "llama", tokenizer_config: { bos_token: "<s>", chat_template: "{{ x }}" } },
    cardMarkdown: "---\nlicense: mit\n---\n# Hi",
  };

  it("lists siblings with sizes and offers the stored metadata files", () => {
    const view = buildFilesView(model, null, "https://hub.example", "main");
    expect(view.files.map((f) => [f.path, f.size, f.viewable])).toEqual([
      ["config.json", 700, true],
      ["model.safetensors", 5_000_000, false],
      ["README.md", null, true],
    ]);
    expect(view.totalBytes).toBeNull();
    expect(view.viewable.map((v) => v.path)).toEqual(["config.json", "tokenizer_config.json", "README.md"]);
  });

  it("shows config.json without the merged tokenizer config, and tokenizer_config.json on its own", () => {
    const config = buildFilesView(model, "config.json", "https://hub.example", "main").viewer;
    expect(config?.status).toBe("shown");
    if (config?.status !== "shown") return;
    expect(JSON.parse(config.text)).toEqual({ architectures: ["LlamaForCausalLM"], model_type: "llama" });
    expect(textOf(config.html.html ?? "")).toBe(config.text);
    const tok = buildFilesView(model, "tokenizer_config.json", "https://hub.example", "main").viewer;
    expect(tok?.status === "shown" && JSON.parse(tok.text)).toEqual({ bos_token: "<s>", chat_template: "{{ x }}" });
  });

  it("says when the catalogue does not hold a file and links to it", () => {
    const view = buildFilesView(model, "model.safetensors", "https://hub.example", "r1");
    expect(view.viewer).toEqual({ path: "model.safetensors", status: "not-stored", url: "https://hub.example/" + model.id + "/blob/r1/model.safetensors" });
    expect(filesViewStatus(view)).toBe(200);
  });

  it("says a file is not in the repository when its file list lacks it, a 404", () => {
    const view = buildFilesView(model, "nonexistent.txt", "https://hub.example", "r1");
    expect(view.viewer).toEqual({ path: "nonexistent.txt", status: "not-in-repo" });
    expect(filesViewStatus(view)).toBe(404);
    // Without a file list nothing says the file is missing: the Hub link stays.
    const listRow = buildFilesView({ ...model, siblings: [] }, "nonexistent.txt", "https://hub.example", "r1");
    expect(listRow.viewer?.status).toBe("not-stored");
    expect(filesViewStatus(listRow)).toBe(200);
    expect(filesViewStatus(buildFilesView(model, null, "https://hub.example", "r1"))).toBe(200);
  });
});

describe("Use this model for a GGUF repo", () => {
  const gguf = fixtureById(loadLibraryFixtures().map((f) => f.catalog), "Qwen/Qwen2-0.5B-Instruct-GGUF");
  const commands = (use: ReturnType<typeof buildUseThisModel>, key: string) =>
    use.localApps.find((a) => a.key === key)?.blocks.flatMap((b) => b.commands.map((c) => c.text)) ?? [];

  it("fills the Q4_K_M file into the commands when the repo's files are known, without opening the menu", () => {
    const use = buildUseThisModel(gguf, null);
    expect(use.selectedGguf).toBe("qwen2-0_5b-instruct-q4_k_m.gguf");
    expect(use.ggufChosen).toBe(false);
    expect(use.ggufFilesUnknown).toBeNull();
    const llama = commands(use, "llama.cpp").join("\n");
    expect(llama).toContain(`-hf ${gguf.id}:Q4_K_M`);
    expect(use.localApps.flatMap((a) => a.blocks.flatMap((b) => b.commands.map((c) => c.text))).join("\n")).not.toContain("{{");
  });

  it("takes the visitor's pick over the default, and ignores a file the repo does not have", () => {
    const picked = buildUseThisModel(gguf, "qwen2-0_5b-instruct-q8_0.gguf");
    expect([picked.selectedGguf, picked.ggufChosen]).toEqual(["qwen2-0_5b-instruct-q8_0.gguf", true]);
    expect(commands(picked, "llama.cpp").join("\n")).toContain(`-hf ${gguf.id}:Q8_0`);
    const unknown = buildUseThisModel(gguf, "other.gguf");
    expect([unknown.selectedGguf, unknown.ggufChosen]).toEqual(["qwen2-0_5b-instruct-q4_k_m.gguf", false]);
  });

  it("loads the same file in the Transformers code when the repo names transformers", () => {
    const tagged = { ...gguf, libraryName: "transformers", tags: [...gguf.tags, "transformers"], transformersInfo: { auto_model: "AutoModelForCausalLM" } };
    const use = buildUseThisModel(tagged, null);
    expect(use.library?.ggufFile).toEqual({ name: "qwen2-0_5b-instruct-q4_k_m.gguf", placeholder: false });
    expect(use.library?.snippets.map((c) => c.text).join("\n")).toContain(`.from_pretrained("${gguf.id}", gguf_file="qwen2-0_5b-instruct-q4_k_m.gguf"`);
    const picked = buildUseThisModel(tagged, "qwen2-0_5b-instruct-q8_0.gguf");
    expect(picked.library?.snippets.map((c) => c.text).join("\n")).toContain('gguf_file="qwen2-0_5b-instruct-q8_0.gguf"');
  });

  it("keeps the placeholders, and says a quantisation must be picked, only when no .gguf file is known", () => {
    const listRow = { ...gguf, siblings: [], gguf: null };
    const use = buildUseThisModel(listRow, null);
    expect([use.selectedGguf, use.ggufFilesUnknown]).toEqual([null, "no-file-list"]);
    expect(commands(use, "llama.cpp").join("\n")).toContain("{{QUANT_TAG}}");
    const noGgufListed = buildUseThisModel({ ...listRow, siblings: [{ rfilename: "README.md", size: null }] }, null);
    expect(noGgufListed.ggufFilesUnknown).toBe("no-gguf-file");
  });
});

describe("the page's facts, from rows of the bundled catalogue", () => {
  let t: TestDatabase;
  // Qwen/Qwen2-72B-Instruct-AWQ: eight 4-bit weights per I32, so safetensors.total (11.9B) counts storage.
  const AWQ = {
    id: "Qwen/Qwen2-72B-Instruct-AWQ",
    author: "Qwen",
    pipeline_tag: "text-generation",
    library_name: "transformers",
    tags: ["transformers", "safetensors", "qwen2", "text-generation", "conversational", "4-bit", "awq", "region:us"],
    config: { architectures: ["Qwen2ForCausalLM"], model_type: "qwen2", quantization_config: { bits: 4, quant_method: "awq" } },
    safetensors: { parameters: { F16: 3044057088, I32: 8876851200 }, total: 11920908288 },
    downloads: 10,
    likes: 1,
  };
  // Qwen/Qwen2-72B-Instruct: `license: other`, and the card names the licence and links its text.
  const QWEN = {
    id: "Qwen/Qwen2-72B-Instruct",
    author: "Qwen",
    pipeline_tag: "text-generation",
    library_name: "transformers",
    tags: ["transformers", "safetensors", "qwen2", "text-generation", "chat", "conversational", "en", "license:other", "region:us"],
    cardData: { license: "other", license_name: "tongyi-qianwen", license_link: "https://huggingface.co/Qwen/Qwen2-72B-Instruct/blob/main/LICENSE", language: ["en"] },
    siblings: [{ rfilename: "config.json" }, { rfilename: "model-00001-of-00037.safetensors" }],
    downloads: 10,
    likes: 1,
  };
  const page = (id: string, query = "") => loadModelPage(id, new URL(`http://localhost/${id}${query}`), undefined);
  const summaryText = (lines: SummaryLine[]) => lines.map((l) => l.map((p) => (typeof p === "string" ? p : p.text)).join("")).join(" ");

  beforeAll(async () => {
    t = await testDialects()[0]!.create();
    setDb(t.handle);
    const rows = [AWQ, QWEN].map((value, n) => ({ kind: "record" as const, source: "rows.jsonl", line: n + 1, value }));
    await importItems(t.handle, (async function* () { yield* rows; })(), { statsAsOf: "2024-07-11" });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("states no parameter count for packed quantised weights, even one an older import stored", async () => {
    const fresh = await page(AWQ.id);
    expect(fresh.model.params).toBeNull();
    expect(summaryText(fresh.summary)).not.toMatch(/parameters/i);
    await t.handle.db.updateTable("models").set({ params: 11920908288 }).where("id", "=", AWQ.id).execute();
    const stale = await page(AWQ.id);
    expect(stale.model.params).toBeNull();
    expect(summaryText(stale.summary)).not.toContain("11.9B");
  });

  it("names the card's own licence beside \"other\", linked to its text, in the header, the summary and the description", async () => {
    const data = await page(QWEN.id);
    const link = "https://huggingface.co/Qwen/Qwen2-72B-Instruct/blob/main/LICENSE";
    expect(data.model.license).toBe("other");
    expect(data.model.namedLicense).toEqual({ name: "tongyi-qianwen", href: link });
    expect(data.summary).toContainEqual(["Its license is other (", { text: "tongyi-qianwen", href: link }, ")."]);
    expect(data.seo.description).toContain("other (tongyi-qianwen) license");
    const header = renderToStaticMarkup(createElement(ModelHeader, { model: data.model }));
    expect(header).toContain(`<a href="/models?license=other"`);
    expect(header).toContain(`<a href="${link}" class="underline hover:no-underline" rel="nofollow noopener">tongyi-qianwen</a>`);
    expect(header.replace(/<[^>]+>/g, "").replace(/\u00a0/g, " ")).toContain("License: other (tongyi-qianwen)");
  });

  it("answers a file the repository's list lacks with a 404 view that says so", async () => {
    const data = await page(QWEN.id, "?tab=files&file=nonexistent.txt");
    expect(data.files?.viewer).toEqual({ path: "nonexistent.txt", status: "not-in-repo" });
    expect(filesViewStatus(data.files)).toBe(404);
    const html = renderToStaticMarkup(createElement(ModelFiles, { files: data.files!, modelId: QWEN.id }));
    expect(html.replace(/<[^>]+>/g, "").replace(/&#x27;/g, "'")).toContain("There is no file named nonexistent.txt in this repository's file list");
    expect(html).not.toContain("does not store the contents");
  });
});

/**
 * GGUF repos in Chromium against the real server on the bundled catalogue:
 * - a list row recognised as GGUF by its tags alone offers llama.cpp, Ollama, LM Studio and Jan,
 *   with exactly LOCAL_APPS' text;
 * - a local folder with config.json and two .gguf files, imported with `modelyard import`, shows
 *   its header (architecture, context length 4096) and each file's quantisation and size in the
 *   GGUF panel; `/api/models/{id}` returns the Hub's `gguf` field; a file picked in the panel fills
 *   the commands; the GGUF chat template is previewed on the Chat template tab;
 * - axe and the CSP stay clean; screenshots light/dark, phone/desktop go to test-results/screenshots/.
 */
import fs from "node:fs";
import path from "node:path";
import { GGUFValueType, serializeGgufMetadata } from "@huggingface/gguf";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupDatabase, setupServer } from "#tests/e2e/support/journey.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { getLocalAppSnippets } from "#app/snippets/local-app-snippets.ts";
import { allowOnlyLoopback, waitForHydration } from "#tests/e2e/support/browser.ts";
import { describeViolations, readCspViolations, recordCspViolations, runAxe } from "#tests/e2e/support/page-audit.ts";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import { ggufFilesWithQuant } from "#app/catalog/gguf.ts";

const LIST_ROW = "lmstudio-community/Meta-Llama-3-8B-Instruct-GGUF";
const LOCAL = "demo/tiny-llama-gguf";
const TEMPLATE = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{{ eos_token }}{% endfor %}";

const server = setupServer({}, async (s) => {
  // A local model folder, in the server's own temporary folder (removed when it stops).
  const dir = path.join(s.dir, "demo__tiny-llama-gguf");
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ architectures: ["LlamaForCausalLM"], model_type: "llama" }));
  fs.writeFileSync(path.join(dir, "tiny-llama.Q4_K_M.gguf"), ggufHeader(15));
  fs.writeFileSync(path.join(dir, "tiny-llama.Q8_0.gguf"), ggufHeader(7));
  await importIntoServer(s, dir);
});
const db = setupDatabase(server);
const browser = setupBrowser();

/** A real GGUF header (no tensors): what llama.cpp's converter writes before the weights. */
function ggufHeader(fileType: number): Uint8Array {
  return serializeGgufMetadata({
    version: { value: 3, type: GGUFValueType.UINT32 },
    tensor_count: { value: 0n, type: GGUFValueType.UINT64 },
    kv_count: { value: 8n, type: GGUFValueType.UINT64 },
    "general.architecture": { value: "llama", type: GGUFValueType.STRING },
    "general.file_type": { value: fileType, type: GGUFValueType.UINT32 },
    "llama.context_length": { value: 4096, type: GGUFValueType.UINT32 },
    "tokenizer.chat_template": { value: TEMPLATE, type: GGUFValueType.STRING },
    "tokenizer.ggml.tokens": { value: ["<unk>", "<s>", "</s>"], type: GGUFValueType.ARRAY, subType: GGUFValueType.STRING },
    "tokenizer.ggml.bos_token_id": { value: 1, type: GGUFValueType.UINT32 },
    "tokenizer.ggml.eos_token_id": { value: 2, type: GGUFValueType.UINT32 },
  } as unknown as Parameters<typeof serializeGgufMetadata>[0]);
}

async function model(id: string): Promise<CatalogModel> {
  const m = await getModelById(db.db, id);
  if (!m) throw new Error(`${id} missing from the test catalogue`);
  return m;
}

async function newContext(opts: { scheme?: "light" | "dark"; width?: number; height?: number } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    colorScheme: opts.scheme ?? "light",
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
  });
  await allowOnlyLoopback(context);
  await recordCspViolations(context);
  return context;
}

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + url, { waitUntil: "load" });
  await waitForHydration(page, "[data-copy-button]");
  return page;
}

const codeTexts = (page: Page, selector: string) => page.$$eval(`${selector} [data-code] pre`, (els) => els.map((e) => e.textContent ?? ""));

function flatten(app: ReturnType<typeof getLocalAppSnippets>[number]): string[] {
  return (app.snippets ?? []).flatMap((b) => [...(b.setup === undefined ? [] : [b.setup]), ...(Array.isArray(b.content) ? b.content : [b.content])]);
}

describe("a GGUF list row with no files and no header", () => {
  it("offers llama.cpp, Ollama, LM Studio and Jan with LOCAL_APPS' exact text", async () => {
    const m = await model(LIST_ROW);
    expect(m.siblings).toEqual([]);
    expect(m.gguf).toBeNull();
    const apps = getLocalAppSnippets(m);
    expect(apps.map((a) => a.key)).toEqual(expect.arrayContaining(["llama.cpp", "ollama", "lmstudio", "jan"]));
    const context = await newContext();
    const page = await open(context, `/${LIST_ROW}`);
    await page.click("[data-use-this-model] > summary");
    const shown = await page.$$eval("[data-local-app]", (els) => els.map((e) => e.getAttribute("data-local-app")));
    expect(shown).toEqual(apps.map((a) => a.key));
    for (const key of ["llama.cpp", "ollama"]) {
      await page.click(`[data-local-app="${key}"] > summary`);
      expect(await codeTexts(page, `[data-local-app="${key}"]`), key).toEqual(flatten(apps.find((a) => a.key === key)!));
    }
    expect(await codeTexts(page, '[data-local-app="ollama"]')).toEqual([`ollama run hf.co/${LIST_ROW}:{{QUANT_TAG}}`]);
    await page.click('[data-local-app="lmstudio"] > summary');
    expect(await page.getAttribute('[data-local-app="lmstudio"] a[href^="lmstudio:"]', "href")).toBe(`lmstudio://open_from_hf?model=${LIST_ROW}`);
    await page.click('[data-local-app="jan"] > summary');
    expect(await page.getAttribute('[data-local-app="jan"] a[href^="jan:"]', "href")).toBe(`jan://models/huggingface/${LIST_ROW}`);
    // No file list: the placeholders are explained, with the pick left to the visitor, and no panel claims a header.
    expect(await page.textContent("[data-gguf-files-unknown]")).toContain("no file list");
    expect(await page.textContent("[data-gguf-files-unknown]")).toContain("you must pick a quantisation");
    expect(await page.$("[data-gguf-panel]")).toBeNull();
    expect(await page.textContent("body")).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(await page.textContent("body")).not.toMatch(/9,007,199,254,740,991/);
    expect(describeViolations(await runAxe(page))).toBe("");
    expect(await readCspViolations(page)).toEqual([]);
    await context.close();
  });

  it("has no gguf field in the API, since no header was imported", async () => {
    const info = (await (await fetch(`${server.url}/api/models/${LIST_ROW}`)).json()) as Record<string, unknown>;
    expect(info["id"]).toBe(LIST_ROW);
    expect("gguf" in info).toBe(false);
  });
});

describe("a local folder with config.json and GGUF files", () => {
  it("shows the header and each file's quantisation and size in the GGUF panel", async () => {
    const m = await model(LOCAL);
    expect(m.gguf).toMatchObject({ architecture: "llama", context_length: 4096 });
    const context = await newContext();
    const page = await open(context, `/${LOCAL}`);
    const panel = page.locator("[data-gguf-panel]");
    expect(await panel.locator('[data-gguf-fact="Context length"] dd').textContent()).toBe("4,096 tokens");
    expect(await panel.locator('[data-gguf-fact="Architecture"] dd').textContent()).toBe("llama");
    // Header-only files hold no tensors, so there is no parameter count to show.
    expect(await panel.locator('[data-gguf-fact="Parameters"]').count()).toBe(0);
    const files = await panel.locator("[data-gguf-file]").evaluateAll((els) => els.map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim()));
    const size = fs.statSync(path.join(server.dir, "demo__tiny-llama-gguf", "tiny-llama.Q8_0.gguf")).size;
    expect(files).toEqual([`Q8_0tiny-llama.Q8_0.gguf${size} B`, `Q4_K_Mtiny-llama.Q4_K_M.gguf${size} B`]);
    expect(describeViolations(await runAxe(page))).toBe("");

    // Before any pick, the commands hold the Q4_K_M file, not the library's {{QUANT_TAG}}, and the menu stays closed.
    expect(await page.locator("[data-use-this-model]").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.click("[data-use-this-model] > summary");
    await page.click('[data-local-app="ollama"] > summary');
    expect(await codeTexts(page, '[data-local-app="ollama"]')).toEqual([`ollama run hf.co/${LOCAL}:Q4_K_M`]);
    expect(await page.inputValue('select[name="gguf"]')).toBe("tiny-llama.Q4_K_M.gguf");
    expect(await page.$("[data-gguf-files-unknown]")).toBeNull();
    // Closed again, so the open menu does not cover the panel's links.
    await page.keyboard.press("Escape");

    // A file picked in the panel fills the commands.
    await Promise.all([page.waitForURL(/gguf=tiny-llama\.Q8_0\.gguf/), panel.locator('[data-gguf-file="tiny-llama.Q8_0.gguf"] a').click()]);
    await page.click('[data-local-app="ollama"] > summary');
    expect(await codeTexts(page, '[data-local-app="ollama"]')).toEqual([`ollama run hf.co/${LOCAL}:Q8_0`]);
    expect(await page.inputValue('select[name="gguf"]')).toBe("tiny-llama.Q8_0.gguf");
    expect(await page.$$eval('select[name="gguf"] option', (els) => els.map((e) => e.textContent))).toEqual([
      `Q8_0 · ${size} B (tiny-llama.Q8_0.gguf)`,
      `Q4_K_M · ${size} B (tiny-llama.Q4_K_M.gguf)`,
    ]);
    expect(describeViolations(await runAxe(page))).toBe("");

    // The GGUF's own template (tokenizer_config has none) goes through the chat-template preview.
    await page.goto(`${server.url}/${LOCAL}`);
    await Promise.all([page.waitForURL(/tab=chat-template/), page.click("[data-gguf-panel] >> text=Preview the chat template")]);
    const output = (await page.textContent("[data-ct-output]")) ?? "";
    expect(output).toContain("<|user|>");
    // The GGUF header's own EOS token, from tokenizer.ggml.tokens.
    expect(output).toContain("</s>");
    expect(await readCspViolations(page)).toEqual([]);
    await context.close();
  });

  it("returns the Hub's gguf field from /api/models/{id}", async () => {
    const info = (await (await fetch(`${server.url}/api/models/${LOCAL}`)).json()) as Record<string, unknown>;
    expect(info["gguf"]).toEqual({ total: 0, architecture: "llama", context_length: 4096, chat_template: TEMPLATE, bos_token: "<s>", eos_token: "</s>" });
    const expanded = (await (await fetch(`${server.url}/api/models/${LOCAL}?expand[]=gguf`)).json()) as Record<string, unknown>;
    expect(Object.keys(expanded).sort()).toEqual(["_id", "gguf", "id"]);
  });
});

describe("a GGUF repo with long file names on a 390 px phone", () => {
  const LONG = "Quant-Cartel/Llama-3-TenyxChat-DaybreakStorywriter-70B-iMat-GGUF";

  it("fits the screen on every tab, with the GGUF file list and Use this model open", async () => {
    const m = await model(LONG);
    expect(ggufFilesWithQuant(m).length).toBeGreaterThan(10);
    const context = await newContext({ width: 390, height: 844 });
    const urls = [`/${LONG}`, `/${LONG}?gguf=${encodeURIComponent(ggufFilesWithQuant(m)[0]!.rfilename)}`, `/${LONG}?tab=files`, `/${LONG}?tab=inference`];
    for (const url of urls) {
      const page = await open(context, url);
      const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(width.scroll, url).toBeLessThanOrEqual(width.inner);
      await page.close();
    }
    await context.close();
  });
});

describe("screenshots", () => {
  it("captures the GGUF pages light/dark, phone/desktop", { timeout: 240_000 }, async () => {
    const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
    for (const scheme of ["light", "dark"] as const) {
      for (const [device, viewport] of Object.entries(sizes)) {
        const context = await newContext({ scheme, ...viewport });
        let page = await open(context, `/${LIST_ROW}`);
        await page.click("[data-use-this-model] > summary");
        await page.click('[data-local-app="llama.cpp"] > summary');
        await page.screenshot({ path: screenshot(`gguf-menu-${device}-${scheme}.png`) });
        expect(describeViolations(await runAxe(page)), `${device} ${scheme} menu`).toBe("");
        await page.close();
        page = await open(context, `/${LOCAL}?gguf=tiny-llama.Q4_K_M.gguf`);
        await page.click('[data-local-app="llama.cpp"] > summary');
        await page.screenshot({ path: screenshot(`gguf-local-menu-${device}-${scheme}.png`) });
        await page.close();
        page = await open(context, `/${LOCAL}`);
        await page.locator("[data-gguf-panel]").scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshot(`gguf-panel-${device}-${scheme}.png`) });
        expect(describeViolations(await runAxe(page)), `${device} ${scheme} panel`).toBe("");
        expect(await readCspViolations(page)).toEqual([]);
        await context.close();
      }
    }
  });
});

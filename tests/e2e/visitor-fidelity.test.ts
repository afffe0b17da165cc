/**
 * The newest models as a visitor finds them on the bundled catalogue (issue 32), in Chromium
 * against the real server: chat models known only by their provider mapping (tagless list rows)
 * chat, with every provider and chat code; legacy one-part ids redirect as the Hub's do.
 * Providers are the SIMULATOR; nothing is run unless a test sends a message.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { waitForHydration } from "#tests/e2e/support/browser.ts";
import { setupBrowser, setupOfflinePage, setupServer, setupSimulator } from "#tests/e2e/support/journey.ts";

const LLAMA = "meta-llama/Llama-3.3-70B-Instruct";
const COHERE = "CohereLabs/c4ai-command-a-03-2025";

const sim = setupSimulator();
const server = setupServer(() => ({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url } }));
const browser = setupBrowser();
const { page } = setupOfflinePage(browser, { viewport: { width: 1200, height: 900 } });

describe("chat models known by their provider mapping", () => {
  it(`${LLAMA} (tags: []) has the chat demo, all nine providers and chat code`, async () => {
    await page.goto(`${server.url}/${LLAMA}`);
    await page.waitForSelector("#demo [data-chat-demo]");
    const providers = await page.locator("#demo select[name=provider] option").allTextContents();
    expect(providers).toEqual(expect.arrayContaining(["cerebras", "fireworks-ai", "sambanova", "together", "groq", "hf-inference", "hyperbolic", "nebius", "novita"]));
  });

  it(`the playground chats with ${LLAMA} instead of saying nothing serves it, with chat code for every provider`, async () => {
    await page.goto(`${server.url}/playground/${LLAMA}`);
    await page.waitForSelector("[data-chat-demo]");
    expect(await page.locator("main").innerText()).not.toContain("cannot be run");
    const panel = page.locator("[data-inference-panel]");
    await panel.waitFor();
    const panelProviders = (await panel.locator("select[name=provider] option").allTextContents()).join(" ");
    for (const p of ["cerebras", "fireworks-ai", "sambanova"]) expect(panelProviders).toContain(p);
    expect(await panel.innerText()).toContain("chatCompletion");
    expect(await panel.innerText()).not.toContain("textGeneration(");
  });

  it(`${COHERE} offers cohere for chat, not "cannot call … for text-generation"`, async () => {
    const html = await (await fetch(`${server.url}/${COHERE}`)).text();
    expect(html).not.toContain("cannot call for text-generation");
    expect(html).not.toMatch(/cannot call[^<]*text-generation/);
    await page.goto(`${server.url}/${COHERE}`);
    await page.waitForSelector("#demo [data-chat-demo]");
    expect(await page.locator("#demo select[name=provider] option").allTextContents()).toContain("cohere");
  });
});

describe("facets and finding one's way", () => {
  it("a library whose name holds a comma filters by it, from its facet link", async () => {
    // The facet lists the 30 largest libraries; a search for the model brings its library in.
    await page.goto(`${server.url}/models?search=yuna-ai`);
    const link = page.locator('a[href*="library=PyTorch"]').first();
    await link.waitFor({ state: "attached" });
    await page.goto(`${server.url}${await link.getAttribute("href")}`);
    const main = await page.locator("main").innerText();
    expect(main).not.toContain("was ignored");
    expect(main).toContain("yukiarimo/yuna-ai-v3-atomic");
    expect(await page.locator('[data-testid="results"] a[href^="/"]').filter({ hasText: "/" }).count()).toBeLessThanOrEqual(2);
  });

  it("the parameters filter says how few models have a parameter count", async () => {
    await page.goto(`${server.url}/models`);
    await expect.poll(async () => /Known for [\d,]+ of 5,240 models; the rest fall in no range\./.test(await page.locator("aside").innerText()), { timeout: 15_000 }).toBe(true);
  });

  it("/models has a skip link to its results, and the header and footer link the playground", async () => {
    await page.goto(`${server.url}/models`);
    // From the search box, a few Tabs reach it, before the filters' hundred links.
    await page.locator("#models-search").focus();
    let presses = 0;
    while (presses < 6 && (await page.evaluate(() => document.activeElement?.textContent ?? "")) !== "Skip to results") {
      await page.keyboard.press("Tab");
      presses += 1;
    }
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toBe("Skip to results");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("results");
    expect(await page.locator("header").getByRole("link", { name: "Playground" }).getAttribute("href")).toBe("/playground");
    expect(await page.locator("footer").getByRole("link", { name: "Playground" }).getAttribute("href")).toBe("/playground");
  });
});

describe("Compare with…", () => {
  it("keeps a model nothing runs, says why, and starts a search for models like it", async () => {
    const model = "AdamCodd/distilbert-base-uncased-finetuned-sentiment-amazon";
    await page.goto(`${server.url}/playground/${model}`);
    const href = await page.locator("[data-compare-with]").getAttribute("href");
    expect(href).toBe(`/compare?task=text-classification&from=${model}`);
    await page.goto(`${server.url}${href}`);
    const note = page.locator(`[data-compare-from="${model}"]`);
    expect(await note.innerText()).toContain(`Nothing here runs ${model} for text classification`);
    expect(await page.locator("[data-add-column] input[name=q]").inputValue()).toBe("distilbert");
    // The search for models like it has run, without a press of Search: its results are shown.
    const candidates = page.locator("[data-add-column] [data-candidates] li");
    await candidates.first().waitFor();
    expect(await candidates.first().innerText()).toContain("distilbert");
  });

  it("opens a live provider, not a staging one, for a model that has both", async () => {
    await page.goto(`${server.url}/playground/meta-llama/Meta-Llama-3-8B-Instruct`);
    const href = (await page.locator("[data-compare-with]").getAttribute("href")) ?? "";
    expect(href).not.toContain("fireworks-ai");
    expect(href).toMatch(/model=meta-llama\/Meta-Llama-3-8B-Instruct@(hf-inference|together)/);
  });
});

describe("Add a column", () => {
  it("offers the newest runnable models, which have no download count: 'llama' finds Llama 3.1 and 3.3", async () => {
    const res = await fetch(`${server.url}/api/compare/candidates?task=text-generation&q=llama`);
    const { candidates } = (await res.json()) as { candidates: Array<{ modelId: string; choices: unknown[] }> };
    const ids = candidates.map((c) => c.modelId);
    // Before, the first 60 best-downloaded matches held 4 runnable models and no Llama 3.1 or 3.3.
    expect(ids.length).toBeGreaterThanOrEqual(8);
    expect(ids).toEqual(expect.arrayContaining([LLAMA, "meta-llama/Llama-3.1-8B-Instruct"]));
    for (const c of candidates) expect(c.choices.length).toBeGreaterThan(0);
  });

  it("says when a search holds more runnable models than it lists", async () => {
    // "llama" matches more chat models that can run than the 20 listed; the list said nothing of them.
    const broad = (await (await fetch(`${server.url}/api/compare/candidates?task=text-generation&q=llama`)).json()) as { candidates: unknown[]; more: boolean };
    expect(broad.candidates).toHaveLength(20);
    expect(broad.more).toBe(true);
    const narrow = (await (await fetch(`${server.url}/api/compare/candidates?task=text-generation&q=Llama-3.3-70B-Instruct`)).json()) as { candidates: unknown[]; more: boolean };
    expect(narrow.candidates.length).toBeGreaterThan(0);
    expect(narrow.more).toBe(false);

    await page.goto(`${server.url}/compare`);
    await waitForHydration(page, "[data-add-column] input[name=q]");
    const add = page.locator("[data-add-column]");
    await add.locator("input[name=q]").fill("llama");
    await add.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => add.locator("[data-candidates] li").count()).toBe(20);
    expect(await add.locator("[data-candidates-more]").innerText()).toBe("The first 20 that can run here, most downloaded first: type more of a name to find others.");
    await add.locator("input[name=q]").fill("Llama-3.3-70B-Instruct");
    await add.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => add.locator("[data-candidates] li").count()).toBeLessThan(20);
    expect(await add.locator("[data-candidates-more]").count()).toBe(0);
  });
});

describe("the home page's tasks", () => {
  it("shows each modality's biggest tasks with their counts, Text Generation among them, and no chip that leads to nothing", async () => {
    await page.goto(`${server.url}/`);
    const chips = page.locator("[data-home-modality] a[href^='/models?pipeline_tag=']");
    const hrefs = await chips.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(hrefs).toContain("/models?pipeline_tag=text-generation");
    expect(hrefs).toContain("/models?pipeline_tag=fill-mask");
    const counts = await page.locator("[data-home-modality] span.tabular-nums").allInnerTexts();
    expect(counts.length).toBe(hrefs.length);
    for (const c of counts) expect(Number(c.replace(/,/g, ""))).toBeGreaterThan(0);
  });
});

describe("organisation pages", () => {
  it("/Qwen shows its models per task, its most-liked and newest models, and its Spaces or says there are none", async () => {
    await page.goto(`${server.url}/Qwen`);
    const overview = page.locator("[data-org-overview]");
    await overview.waitFor();
    const text = await overview.innerText();
    expect(await overview.locator("a[href='/Qwen?pipeline_tag=text-generation']").count()).toBe(1);
    expect(text).toMatch(/Most liked[\s\S]*♥ [\d,]+/i);
    expect(text).toMatch(/Newest[\s\S]*\d{4}-\d{2}-\d{2}/i);
    // Qwen's newest models (Qwen3, QwQ) came without a creation date: the column says it leaves them out.
    expect(await overview.locator("[data-org-undated]").innerText()).toMatch(/^[\d,]+ models have no creation date in this catalogue/);
    expect(text).toMatch(/Spaces \(\d+\)|The catalogue lists no Space by Qwen\./i);
    // Not on a filtered view: the list is what was asked for.
    await page.goto(`${server.url}/Qwen?search=coder`);
    expect(await page.locator("[data-org-overview]").count()).toBe(0);
  });
});

describe("legacy one-part ids", () => {
  it.each([
    ["gpt2", "openai-community/gpt2"],
    ["bert-base-uncased", "google-bert/bert-base-uncased"],
    ["roberta-base", "FacebookAI/roberta-base"],
    ["t5-small", "google-t5/t5-small"],
  ])("/%s redirects to /%s, as the Hub does", async (legacy, moved) => {
    const res = await fetch(`${server.url}/${legacy}`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`/${moved}`);
    await page.goto(`${server.url}/${legacy}`);
    expect(new URL(page.url()).pathname).toBe(`/${moved}`);
    expect(await page.locator("h1").first().innerText()).toContain(moved.split("/")[1]!);
  });

  it("a one-part id that names nothing still answers 404 with suggestions", async () => {
    const res = await fetch(`${server.url}/no-such-model-anywhere`, { redirect: "manual" });
    expect(res.status).toBe(404);
  });
});

describe("search as people type it", () => {
  it("'whisper large' finds openai/whisper-large-v3, and 'large whisper' finds it too", async () => {
    for (const q of ["whisper large", "large whisper"]) {
      await page.goto(`${server.url}/models?search=${encodeURIComponent(q)}`);
      const results = page.locator('[data-testid="results"]');
      await results.locator('a[href="/openai/whisper-large-v3"]').first().waitFor();
      for (const href of await results.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))) {
        if (/^\/[^/?]+\/[^/?]+$/.test(href)) expect(href.toLowerCase(), q).toMatch(/(?=.*whisper)(?=.*large)/);
      }
    }
  });

  it("the header search suggests models, organisations and tasks as one types, and the keyboard opens one", async () => {
    await page.goto(`${server.url}/tasks`);
    const box = page.locator("#site-search");
    await waitForHydration(page, "#site-search");
    await box.click();
    await box.pressSequentially("whisper lar", { delay: 20 });
    const list = page.getByRole("listbox", { name: "Suggestions" });
    await list.getByRole("option", { name: /openai\/whisper-large-v3/ }).waitFor();
    expect(await box.getAttribute("aria-expanded")).toBe("true");
    const labels = await list.getByRole("option").allInnerTexts();
    const first = labels.findIndex((l) => l.includes("openai/whisper-large-v3"));
    for (let i = 0; i <= first; i++) await box.press("ArrowDown");
    expect(await box.getAttribute("aria-activedescendant")).toBeTruthy();
    await box.press("Enter");
    await page.waitForURL(`${server.url}/openai/whisper-large-v3`);

    await box.fill("");
    await box.pressSequentially("text class", { delay: 20 });
    await list.getByRole("group", { name: "Tasks" }).getByRole("option", { name: /Text Classification/ }).waitFor();
    await box.fill("");
    await box.pressSequentially("qwen", { delay: 20 });
    await list.getByRole("group", { name: "Organisations" }).getByRole("option", { name: /^Qwen/ }).waitFor();
    await box.press("Escape");
    expect(await box.getAttribute("aria-expanded")).toBe("false");
  });
});

describe("GGUF repos", () => {
  it("library=gguf finds every model tagged gguf, as the Hub does, and its facet says as many", async () => {
    const bundled = zlib.gunzipSync(fs.readFileSync(path.resolve(import.meta.dirname, "../../catalogue/hub-catalogue-2024-07-11.jsonl.gz"))).toString("utf8");
    const tagged = bundled.split("\n").filter((l) => l.trim() !== "" && ((JSON.parse(l) as { tags?: string[] }).tags ?? []).includes("gguf")).length;
    expect(tagged).toBeGreaterThan(1000);
    await page.goto(`${server.url}/models?library=gguf`);
    expect(await page.locator('[data-testid="result-count"]').innerText()).toContain(tagged.toLocaleString("en-US"));
    // A GGUF repo that names no library is among them.
    await page.goto(`${server.url}/models?library=gguf&search=${encodeURIComponent("Qwen2-0.5B-Instruct-GGUF")}`);
    await page.locator('[data-testid="results"] a[href="/Qwen/Qwen2-0.5B-Instruct-GGUF"]').first().waitFor();
  });
});

describe("model tree", () => {
  it("a GGUF repo known only by its list row shows its base, and the base lists it", async () => {
    await page.goto(`${server.url}/legraphista/gemma-2-27b-it-IMat-GGUF`);
    const tree = page.locator("section[aria-labelledby=model-tree]");
    await tree.locator('a[href="/google/gemma-2-27b-it"]').waitFor();
    await page.goto(`${server.url}/google/gemma-2-27b-it`);
    const base = page.locator("section[aria-labelledby=model-tree]");
    await base.locator("summary").first().click();
    await base.locator('a[href="/legraphista/gemma-2-27b-it-IMat-GGUF"]').waitFor();
  });
});

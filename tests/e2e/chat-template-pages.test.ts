/**
 * Browser journeys through the model page's "Chat template" tab and the /chat-template lab, in
 * Chromium against the real server with the chat-template fixtures imported: the server-rendered
 * first view without JavaScript, live rendering as you type, whitespace markers, render errors
 * with their position, the broken-template warning, named templates, compare with diff, state
 * shared through the URL, the lazy jinja chunk, and light/dark screenshots.
 */
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { FIXTURE_IDS, importFixtures } from "#tests/e2e/chat-template-fixtures.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";

// The fixture file is needed only while it is imported.
const server = setupServer({}, async (s) => (await importFixtures(s)).cleanup());
const browser = setupBrowser();

async function newPage(opts: { javaScriptEnabled?: boolean; colorScheme?: "light" | "dark" } = {}): Promise<Page> {
  // Closed with the browser: a test may hold two pages at once (one without JavaScript).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  await allowOnlyLoopback(context);
  const page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  return page;
}

/** Waits for hydration (the tab and lab mark themselves), so typed input reaches React. */
async function hydrated(page: Page, selector: "[data-ct-tab]" | "[data-ct-lab]"): Promise<void> {
  await page.waitForSelector(`${selector}[data-ct-hydrated]`);
}

/**
 * The lab's state as its address holds it (the `s` parameter: deflate-raw JSON in base64url,
 * app/chat-template/url-state.ts), decoded in the page; null before the first write.
 */
async function addressState(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const s = new URL(window.location.href).searchParams.get("s");
    if (!s) return null;
    const bytes = Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).text();
    return JSON.parse(text) as unknown;
  });
}

const outputText = (page: Page, panel = "single") => page.locator(`[data-ct-output-panel="${panel}"] [data-ct-output]`).innerText();

const QWEN_DEFAULT =
  "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello! Who are you?<|im_end|>\n" +
  "<|im_start|>assistant\nI am an assistant. How can I help?<|im_end|>\n<|im_start|>user\nTell me a short joke.<|im_end|>\n<|im_start|>assistant\n";

describe("model page Chat template tab", () => {
  it("shows the server-rendered prompt, highlighted source and line numbers without JavaScript, and re-renders through the form", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(`${server.url}/${FIXTURE_IDS.chatml}?tab=chat-template`);
    expect(await page.locator('nav[aria-label="Model page sections"] a[aria-current="page"]').innerText()).toBe("Chat template");
    expect(await outputText(page)).toBe(QWEN_DEFAULT);
    expect(await page.locator("[data-ct-output] [data-special]").count()).toBe(9);
    expect(await page.locator("[data-ct-source] .line").count()).toBe(6);
    expect(await page.locator("[data-ct-source] pre.shiki span[style]").count()).toBeGreaterThan(5);

    await page.locator('[data-ct-message-content="1"]').fill("Plain form, no script");
    await page.locator("[data-ct-render]").click();
    await page.waitForURL(/m1_content=Plain/);
    expect(await outputText(page)).toContain("<|im_start|>user\nPlain form, no script<|im_end|>");
    // Without JavaScript the button submits the form and the server renders the next page.
    await page.getByRole("button", { name: "+ tool" }).click();
    await expect.poll(() => page.locator("[data-ct-message]").count()).toBe(5);
  });

  it("opens a template that rejects system turns on a conversation it accepts", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(`${server.url}/${FIXTURE_IDS.gemma}?tab=chat-template`);
    expect(await outputText(page)).toBe(
      "<bos><start_of_turn>user\nHello! Who are you?<end_of_turn>\n<start_of_turn>model\nI am an assistant. How can I help?<end_of_turn>\n<start_of_turn>user\nTell me a short joke.<end_of_turn>\n<start_of_turn>model\n",
    );
  });

  it("updates the output as you type, keeps the state in the URL, and restores it on reload", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/${FIXTURE_IDS.chatml}?tab=chat-template`);
    await hydrated(page, "[data-ct-tab]");
    const box = page.locator('[data-ct-message-content="3"]');
    await box.fill("");
    await box.pressSequentially("What is 2+2?", { delay: 10 });
    await expect.poll(() => outputText(page)).toContain("<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n");
    expect(await page.locator("[data-ct-output-panel] figcaption").innerText()).toContain("live");
    await page.locator("[data-ct-agp]").uncheck();
    await expect.poll(() => outputText(page)).toMatch(/What is 2\+2\?<\|im_end\|>\n$/);
    await page.locator("[data-ct-eos]").fill("<|my_eos|>");
    // The address is written 250 ms after an edit, and only the last edit's write lands: once it
    // holds the last edit, no other write is pending.
    await expect.poll(() => addressState(page)).toMatchObject({ addGenerationPrompt: false, a: { eosToken: "<|my_eos|>" } });
    const shared = page.url();
    const again = await newPage({ javaScriptEnabled: false });
    await again.goto(shared);
    expect(await again.locator('[data-ct-message-content="3"]').inputValue()).toBe("What is 2+2?");
    expect(await again.locator("[data-ct-eos]").inputValue()).toBe("<|my_eos|>");
    expect(await outputText(again)).toMatch(/What is 2\+2\?<\|im_end\|>\n$/);
  });

  it("shows whitespace on demand", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/${FIXTURE_IDS.chatml}?tab=chat-template`);
    await hydrated(page, "[data-ct-tab]");
    expect(await page.locator("[data-ct-output] [data-ws-marker]").count()).toBe(0);
    await page.locator("[data-ct-ws]").check();
    await expect.poll(() => page.locator("[data-ct-output] [data-ws-marker]").count()).toBeGreaterThan(10);
    const text = await outputText(page);
    expect(text).toContain("system↵\nYou·are·a·helpful·assistant.");
    await page.screenshot({ path: screenshot("chat-template-tab-whitespace.png") });
    await page.locator("[data-ct-ws]").uncheck();
    await expect.poll(() => page.locator("[data-ct-output] [data-ws-marker]").count()).toBe(0);
  });

  it("shows every named template as a tab, and a render error with its line, column and excerpt", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/${FIXTURE_IDS.named}?tab=chat-template`);
    await hydrated(page, "[data-ct-tab]");
    expect(await page.locator("[data-ct-template-tab]").allInnerTexts()).toEqual(["default", "tool_use"]);
    await page.locator('[data-ct-template-tab="tool_use"]').click();
    // Hermes' tool_use template iterates `tools`: without tools it fails, and says where.
    const error = page.locator("[data-ct-error]");
    await error.waitFor();
    expect(await error.locator("[data-ct-error-position]").innerText()).toMatch(/^Line \d+, column \d+ of template “tool_use”$/);
    expect(await error.locator("[data-ct-error-excerpt]").innerText()).toContain("^");
    expect(await page.locator("[data-ct-source] .ct-error-line").count()).toBe(1);
    await page.getByRole("button", { name: "Tool calls" }).click();
    await expect.poll(() => outputText(page)).toContain("get_current_temperature");
    expect(await page.locator("[data-ct-error]").count()).toBe(0);
    await page.screenshot({ path: screenshot("chat-template-tab-named-tools.png"), fullPage: true });
  });

  it("warns on every tab of a model whose template failed validation, with message and position", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(`${server.url}/${FIXTURE_IDS.broken}`);
    const warning = page.locator("[data-ct-warning]");
    expect(await warning.innerText()).toMatch(/chat template is broken[\s\S]*line \d+, column \d+/);
    await page.goto(`${server.url}/${FIXTURE_IDS.broken}?tab=chat-template`);
    expect(await page.locator("[data-ct-warning]").count()).toBe(1);
    expect(await page.locator("[data-ct-error-position]").innerText()).toMatch(/^Line \d+, column \d+$/);
    expect(await page.locator("[data-ct-error-message]").innerText()).not.toBe("");
    expect(await page.locator("[data-ct-source] .ct-error-line").count()).toBe(1);
    // A template that passed validation gets no warning.
    await page.goto(`${server.url}/${FIXTURE_IDS.chatml}`);
    expect(await page.locator("[data-ct-warning]").count()).toBe(0);
  });

  it("keeps jinja out of the model page until the tab is opened, within the page's JavaScript budget", async () => {
    const page = await newPage();
    const scripts = new Map<string, Buffer>();
    page.on("response", async (res) => {
      if (res.request().resourceType() === "script") scripts.set(new URL(res.url()).pathname, await res.body().catch(() => Buffer.alloc(0)));
    });
    await page.goto(`${server.url}/${FIXTURE_IDS.chatml}`, { waitUntil: "networkidle" });
    const cardScripts = [...scripts.keys()];
    const gzipTotal = [...scripts.values()].reduce((n, body) => n + gzipSync(body).length, 0);
    const perChunk = [...scripts.entries()].map(([p, body]) => `${p}: ${gzipSync(body).length}`).join(", ");
    expect(gzipTotal, `model page JS, gzip: ${gzipTotal} bytes (${perChunk})`).toBeLessThanOrEqual(150 * 1024);
    // Markers of @huggingface/jinja's lexer and of the engine's step cap, both in the lazy chunk only.
    const hasJinja = (body: Buffer) => body.includes("Unexpected character") && body.includes("evaluation steps");
    expect([...scripts.values()].some(hasJinja)).toBe(false);
    await page.goto(`${server.url}/${FIXTURE_IDS.chatml}?tab=chat-template`, { waitUntil: "networkidle" });
    await hydrated(page, "[data-ct-tab]");
    const lazy = [...scripts.entries()].filter(([p, body]) => !cardScripts.includes(p) && hasJinja(body));
    expect(lazy.length).toBe(1);
  });
});

describe("/chat-template lab", () => {
  it("renders a pasted template without JavaScript through the plain GET form", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    const query = new URLSearchParams({ a_text: "{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}", n: "1", m0_role: "user", m0_content: "Hello" });
    await page.goto(`${server.url}/chat-template?${query}`);
    expect(await outputText(page)).toBe("[user] Hello\n");
    await page.locator('[data-ct-template-text="a"]').fill("{{ messages[0].content | upper }}");
    await page.locator("[data-ct-render]").click();
    await page.waitForURL(/a_text=/);
    expect(await outputText(page)).toBe("HELLO");
  });

  it("shows a pasted template's error with line and column as you type", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/chat-template?a_model=${FIXTURE_IDS.chatml}`);
    await hydrated(page, "[data-ct-lab]");
    await page.locator('[data-ct-template-text="a"]').fill("{% for m in messages %}\n  {{ m.content }\n{% endfor %}");
    const error = page.locator("[data-ct-error]");
    await error.waitFor();
    expect(await error.getAttribute("data-ct-error")).toBe("syntax");
    expect(await error.locator("[data-ct-error-position]").innerText()).toMatch(/^Line 2, column \d+$/);
    expect(await error.locator("[data-ct-error-excerpt]").innerText()).toContain("{{ m.content }");
    await page.screenshot({ path: screenshot("chat-template-lab-error.png") });
  });

  it("compares a model with its base model side by side with a diff, and restores the whole state from the URL", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/chat-template?a_model=${FIXTURE_IDS.finetune}`);
    await hydrated(page, "[data-ct-lab]");
    await page.getByRole("link", { name: `Compare with base model ${FIXTURE_IDS.chatml}` }).click();
    await page.waitForSelector('[data-ct-side="b"]');
    await hydrated(page, "[data-ct-lab]");
    expect(await page.locator('[data-ct-model-input="b"]').inputValue()).toBe(FIXTURE_IDS.chatml);
    // The two differ only in the default system prompt, which a system message replaces.
    const summary = page.locator("[data-ct-compare-summary]");
    expect(await summary.getAttribute("data-ct-compare-summary")).toBe("identical");
    await page.getByRole("button", { name: "Chat without system" }).click();
    await expect.poll(() => summary.getAttribute("data-ct-compare-summary")).toBe("different");
    // diffChars may split the insertion (", " + "concise "); together they are the reworded words.
    expect((await page.locator('[data-ct-output-panel="a"] [data-changed]').allInnerTexts()).join("").replace(/\s/g, "")).toBe(",concise");
    expect(await page.locator('[data-ct-output-panel="b"] [data-changed]').count()).toBe(0);

    // Edits apply to both sides at once, and the address bar follows.
    await page.locator('[data-ct-message-content="0"]').fill("Compare me");
    await expect.poll(() => outputText(page, "b")).toContain("<|im_start|>user\nCompare me<|im_end|>");
    expect(await outputText(page, "a")).toContain("<|im_start|>user\nCompare me<|im_end|>");
    await page.locator('[data-ct-template-text="b"]').fill("{% for m in messages %}{{ m.content }}{% endfor %}");
    await expect.poll(() => outputText(page, "b")).toBe("Compare meI am an assistant. How can I help?Tell me a short joke.");
    await page.locator("[data-ct-template-diff] summary").click();
    expect(await page.locator("[data-ct-template-diff] .bg-green-100").count()).toBeGreaterThan(0);
    await page.locator("[data-ct-ws]").check();
    // The address holds the last edit once its write has landed (useStateInUrl drops older ones).
    await expect.poll(() => addressState(page)).toMatchObject({ whitespace: true });
    const shared = page.url();
    await page.screenshot({ path: screenshot("chat-template-lab-compare-light.png"), fullPage: true });

    for (const javaScriptEnabled of [true, false]) {
      const again = await newPage({ javaScriptEnabled });
      await again.goto(shared);
      expect(await again.locator('[data-ct-model-input="a"]').inputValue()).toBe(FIXTURE_IDS.finetune);
      expect(await again.locator('[data-ct-template-text="b"]').inputValue()).toBe("{% for m in messages %}{{ m.content }}{% endfor %}");
      expect(await again.locator('[data-ct-message-content="0"]').inputValue()).toBe("Compare me");
      expect(await again.locator("[data-ct-ws]").isChecked()).toBe(true);
      expect(await outputText(again, "b")).toBe("Compare·meI·am·an·assistant.·How·can·I·help?Tell·me·a·short·joke.");
    }
  });

  it("compares a tokenizer_config template with the GGUF one", async () => {
    const page = await newPage();
    await page.goto(`${server.url}/chat-template?a_model=${FIXTURE_IDS.gguf}`);
    await hydrated(page, "[data-ct-lab]");
    await page.getByRole("link", { name: "Compare tokenizer_config with GGUF template" }).click();
    await page.waitForSelector('[data-ct-side="b"]');
    expect(await page.locator('[data-ct-side="b"] select').inputValue()).toBe("@gguf");
    await hydrated(page, "[data-ct-lab]");
    await page.getByRole("button", { name: "Chat without system" }).click();
    await expect.poll(() => page.locator("[data-ct-compare-summary]").getAttribute("data-ct-compare-summary")).toBe("different");
    expect((await page.locator('[data-ct-output-panel="b"] [data-changed]').allInnerTexts()).join("").replace(/\s/g, "")).toBe(",concise");
  });
});

describe("screenshots", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`captures the tab and the lab (${colorScheme})`, async () => {
      const page = await newPage({ colorScheme });
      await page.goto(`${server.url}/${FIXTURE_IDS.named}?tab=chat-template&a_template=tool_use&op=preset:tools&n=0`, { waitUntil: "networkidle" });
      await page.screenshot({ path: screenshot(`chat-template-tab-${colorScheme}.png`), fullPage: true });
      await page.goto(`${server.url}/${FIXTURE_IDS.broken}?tab=chat-template`, { waitUntil: "networkidle" });
      await page.screenshot({ path: screenshot(`chat-template-tab-broken-${colorScheme}.png`), fullPage: true });
      await page.goto(`${server.url}/chat-template?a_model=${FIXTURE_IDS.finetune}&compare=1&b_model=${FIXTURE_IDS.chatml}&n=0&op=preset:no-system`, { waitUntil: "networkidle" });
      await page.screenshot({ path: screenshot(`chat-template-lab-${colorScheme}.png`), fullPage: true });
    });
  }
});

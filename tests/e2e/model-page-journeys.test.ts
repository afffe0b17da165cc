/**
 * Model page journeys in Chromium against the real server: the "Use this model" menu shows exactly
 * what @huggingface/tasks generates and is keyboard operable, copy buttons copy the exact text,
 * switching provider updates the snippets without a reload, a saved token stays masked until
 * revealed and is copied only on "copy with token", and the page works without JavaScript.
 * Screenshots (light/dark, desktop/phone) go to test-results/screenshots/.
 */
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SCREENSHOTS, screenshot, setupBrowser, setupDatabase, setupServer } from "#tests/e2e/support/journey.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { getInferenceSnippetsFor, TOKEN_PLACEHOLDER } from "#app/snippets/inference-snippets.ts";
import { getLibrarySnippets } from "#app/snippets/library-snippets.ts";
import { loadLibraryFixtures } from "#tests/support/snippet-fixtures/load-fixtures.ts";
import { getLocalAppSnippets } from "#app/snippets/local-app-snippets.ts";
import { allowOnlyLoopback, waitForHydration } from "#tests/e2e/support/browser.ts";
import { writeImportFixtures } from "#tests/support/fixtures.ts";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import { ggufFilesWithQuant } from "#app/catalog/gguf.ts";

const CHAT = "Qwen/Qwen2-72B-Instruct";
const GGUF = "Qwen/Qwen2-0.5B-Instruct-GGUF";
const TOKEN = "hf_TestTokenForTheModelPage0123456789";

const server = setupServer({}, async (s) => {
  // The 2024 dump has no GGUF metadata; the snippet fixtures carry this repo's block (see their README).
  const gguf = loadLibraryFixtures().find((f) => f.catalog.id === GGUF)?.catalog.gguf;
  if (!gguf) throw new Error("GGUF fixture missing");
  const file = path.join(s.dir, "gguf.jsonl");
  fs.writeFileSync(file, JSON.stringify({ id: GGUF, gguf }) + "\n");
  const fixtures = writeImportFixtures();
  await importIntoServer(s, fixtures.details, fixtures.cards, file);
  fixtures.cleanup();
});
const db = setupDatabase(server);
const browser = setupBrowser();

async function model(id: string): Promise<CatalogModel> {
  const m = await getModelById(db.db, id);
  if (!m) throw new Error(`${id} missing from the test catalogue`);
  return m;
}

async function newContext(opts: { js?: boolean; scheme?: "light" | "dark"; width?: number; height?: number } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    javaScriptEnabled: opts.js ?? true,
    colorScheme: opts.scheme ?? "light",
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  await allowOnlyLoopback(context);
  return context;
}

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + url, { waitUntil: "load" });
  // Hydration done: React has attached its handlers once the copy buttons respond.
  if ((await page.evaluate(() => typeof window.__reactRouterContext)) !== "undefined") await waitForHydration(page, "[data-copy-button]");
  return page;
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const codeTexts = (page: Page, selector: string) => page.$$eval(`${selector} [data-code] pre`, (els) => els.map((e) => e.textContent ?? ""));

declare global {
  interface Window {
    __reactRouterContext?: unknown;
    __noReload?: number;
  }
}

describe("Use this model", () => {
  it("shows exactly the library's snippets and every local app's code", async () => {
    const m = await model(CHAT);
    const lib = getLibrarySnippets(m);
    expect(lib?.snippets.length).toBeGreaterThan(0);
    const context = await newContext();
    const page = await open(context, `/${CHAT}`);
    await page.click("[data-use-this-model] > summary");
    expect(await codeTexts(page, '[aria-labelledby="use-library"]')).toEqual(lib!.snippets);
    // 4-space indentation survives into the DOM text (the transformers snippet has none at top level; check the raw text).
    const apps = getLocalAppSnippets(m);
    expect(apps.length).toBeGreaterThan(0);
    for (const app of apps) {
      const sel = `[data-local-app="${app.key}"]`;
      await page.click(`${sel} > summary`);
      const expected = (app.snippets ?? []).flatMap((b) => [...(b.setup === undefined ? [] : [b.setup]), ...(Array.isArray(b.content) ? b.content : [b.content])]);
      expect(await codeTexts(page, sel), app.key).toEqual(expected);
      if (app.deeplink) expect(await page.getAttribute(`${sel} a[href^="${app.deeplink.split(":")[0]}:"]`, "href")).toBe(app.deeplink);
    }
    await context.close();
  });

  it("fills the chosen GGUF file into the local-app commands (a plain GET form)", async () => {
    const m = await model(GGUF);
    const files = ggufFilesWithQuant(m).map((f) => f.rfilename);
    const file = files[1]!;
    const context = await newContext();
    const page = await open(context, `/${GGUF}`);
    await page.click("[data-use-this-model] > summary");
    await page.selectOption('select[name="gguf"]', file);
    await Promise.all([page.waitForURL(/gguf=/), page.click('button:has-text("Use file")')]);
    const llama = getLocalAppSnippets(m, { filepath: file }).find((a) => a.key === "llama.cpp")!;
    const expected = llama.snippets!.flatMap((b) => [...(b.setup === undefined ? [] : [b.setup]), ...(Array.isArray(b.content) ? b.content : [b.content])]);
    await page.click('[data-local-app="llama.cpp"] > summary');
    const shown = await codeTexts(page, '[data-local-app="llama.cpp"]');
    expect(shown).toEqual(expected);
    expect(shown.join("\n")).not.toContain("{{");
    await context.close();
  });

  it("opens, copies and closes with the keyboard alone", async () => {
    const m = await model(CHAT);
    const context = await newContext();
    const page = await open(context, `/${CHAT}`);
    // Tab from the id's copy button to the menu button.
    await page.focus('h1 [data-copy-button]');
    for (let i = 0; i < 10; i++) {
      if (await page.evaluate(() => document.activeElement?.matches("[data-use-this-model] > summary") ?? false)) break;
      await page.keyboard.press("Tab");
    }
    expect(await page.evaluate(() => document.activeElement?.matches("[data-use-this-model] > summary"))).toBe(true);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => (document.querySelector("[data-use-this-model]") as HTMLDetailsElement).open)).toBe(true);
    // The next focusable thing is inside the panel: the first snippet's copy button.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest('[aria-labelledby="use-library"]') !== null && document.activeElement?.matches("[data-copy-button]"))).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.textContent?.includes("Copied"));
    expect(await clipboard(page)).toBe(getLibrarySnippets(m)!.snippets[0]);
    expect(await page.evaluate(() => document.activeElement?.querySelector('[role="status"]')?.textContent)).toBe("Copied to clipboard");
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => (document.querySelector("[data-use-this-model]") as HTMLDetailsElement).open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.matches("[data-use-this-model] > summary"))).toBe(true);
    await context.close();
  });

  it("copies the model id exactly", async () => {
    const context = await newContext();
    const page = await open(context, `/${CHAT}`);
    await page.click("h1 [data-copy-button]");
    await page.waitForFunction(() => document.querySelector("h1 [data-copy-button]")?.textContent?.includes("Copied"));
    expect(await clipboard(page)).toBe(CHAT);
    await context.close();
  });
});

describe("inference snippets panel", () => {
  it("switches provider without a reload and shows exactly the library's code", async () => {
    const m = await model(CHAT);
    const context = await newContext();
    const page = await open(context, `/${CHAT}?tab=inference`);
    await page.evaluate(() => (window.__noReload = 1));
    expect(await page.$$eval('select[name="provider"] option', (os) => os.map((o) => o.getAttribute("value")))).toEqual(["auto", "together"]);
    await page.selectOption('select[name="provider"]', "together");
    await page.waitForFunction(() => document.querySelector("[data-language] pre")?.textContent?.includes('provider: "together"'));
    expect(await page.evaluate(() => window.__noReload)).toBe(1);
    expect(page.url()).toContain("provider=together");
    const expected = getInferenceSnippetsFor(m, { provider: "together", streaming: false });
    const js = expected.languages.find((l) => l.language === "js")!.clients.map((c) => c.content);
    expect(await codeTexts(page, "[data-language]")).toEqual(js);
    // Streaming toggle, then the Python tab, still without a reload.
    await page.check('input[name="stream"]');
    await page.waitForFunction(() => document.querySelector("[data-language] pre")?.textContent?.includes("stream"));
    await page.click('nav[aria-label="Language"] a:has-text("Python")');
    const py = getInferenceSnippetsFor(m, { provider: "together", streaming: true }).languages.find((l) => l.language === "python")!.clients.map((c) => c.content);
    expect(await codeTexts(page, "[data-language]")).toEqual(py);
    expect(await page.evaluate(() => window.__noReload)).toBe(1);
    // The first code block's copy button copies the exact text.
    await page.click("[data-language] [data-copy-button]");
    expect(await clipboard(page)).toBe(py[0]);
    await context.close();
  });

  it("keeps a saved token masked until revealed and copies it only on 'copy with token'", async () => {
    const m = await model(CHAT);
    const context = await newContext();
    await context.addInitScript((t) => window.localStorage.setItem("modelyard.hfToken", t), TOKEN);
    const page = await open(context, `/${CHAT}?tab=inference&provider=together`);
    await page.waitForSelector("text=Reveal token");
    const visible = (await codeTexts(page, "[data-language]")).join("\n");
    expect(visible).not.toContain(TOKEN);
    expect(visible).toContain(`hf_${"*".repeat(TOKEN.length - 3)}`);
    const withToken = getInferenceSnippetsFor(m, { provider: "together", accessToken: TOKEN }).languages.find((l) => l.language === "js")!.clients[0]!.content;
    await page.click('[data-language] button:has-text("Copy with token")');
    expect(await clipboard(page)).toBe(withToken);
    await page.click('[data-language] button[aria-label^="Copy:"]');
    expect(await clipboard(page)).toBe(withToken.split(TOKEN).join(TOKEN_PLACEHOLDER));
    await page.click("text=Reveal token");
    expect((await codeTexts(page, "[data-language]"))[0]).toBe(withToken);
    await context.close();
  });

  it("says when no provider serves a model", async () => {
    const context = await newContext();
    const page = await open(context, "/bigscience/bloom");
    expect(await page.textContent("[data-no-provider]")).toContain("This catalogue lists no inference provider for this model");
    await context.close();
  });
});

describe("large HTML sent once (html islands)", () => {
  it("keeps the card and the file viewer through hydration and client navigation, and leaves them out of the hydration data", async () => {
    const id = "bigscience/bloom";
    const doc = await (await fetch(`${server.url}/${id}`)).text();
    const card = doc.slice(doc.indexOf('id="model-card"'));
    const firstHeading = card.slice(0, 4000).match(/id="md-[a-z0-9-]+"/)?.[0];
    expect(firstHeading, "the card renders headings with ids").toBeTruthy();
    // A run of plain prose from the card body (not a heading, so not in the table of contents).
    const prose = /<p>([A-Za-z0-9 ,]{40,})/.exec(card)?.[1]?.slice(0, 40);
    expect(prose, "the card has a paragraph of plain prose").toBeTruthy();
    // The card's markup appears once: in the page, not again inside the hydration script.
    expect(doc.split(prose!).length - 1).toBe(1);
    // A client navigation's data request carries the HTML inline.
    const dataBody = await (await fetch(`${server.url}/${id}.data`)).text();
    expect(dataBody).toContain(prose!);

    const context = await newContext();
    const page = await open(context, `/${id}`);
    const cardHtml = await page.locator("#model-card").innerHTML();
    expect(cardHtml).toContain(firstHeading!);
    await page.click('a[href*="tab=files"]');
    await page.waitForURL(/tab=files/);
    await page.locator('a[href*="file=README.md"]').first().click();
    await page.waitForURL(/file=README/);
    await expect.poll(() => page.locator("#file-viewer [data-code] pre").textContent(), { timeout: 10_000 }).toContain("bloom");
    // Back twice through the client router, each step settled before the next: two goBack()s in a
    // row could abort the first's navigation wait (net::ERR_ABORTED).
    await page.evaluate(() => history.back());
    await page.waitForURL((u) => u.search.includes("tab=files") && !u.search.includes("file="));
    await page.evaluate(() => history.back());
    await page.waitForURL((u) => !u.search.includes("tab="));
    await expect.poll(() => page.locator("#model-card").innerHTML(), { timeout: 10_000 }).toBe(cardHtml);
    // A document load of the viewer, then a client navigation to the card.
    const viewer = await open(context, `/${id}?tab=files&file=README.md`);
    expect(await viewer.locator("#file-viewer [data-code] pre").textContent()).toContain("bloom");
    await viewer.locator(`a[href="/${id}"]`).first().click();
    await expect.poll(() => viewer.locator("#model-card").innerHTML(), { timeout: 10_000 }).toBe(cardHtml);
    await context.close();
  });
});

describe("without JavaScript", () => {
  it("renders the card, the menu, the configured snippets and the file viewer on the server", async () => {
    const m = await model(CHAT);
    const context = await newContext({ js: false });
    const page = await open(context, `/${CHAT}?tab=inference&provider=together&stream=1&lang=python`);
    const py = getInferenceSnippetsFor(m, { provider: "together", streaming: true }).languages.find((l) => l.language === "python")!.clients.map((c) => c.content);
    expect(await codeTexts(page, "[data-language]")).toEqual(py);
    // The GET form carries the state.
    await page.selectOption('select[name="provider"]', "auto");
    await Promise.all([page.waitForURL(/provider=auto/), page.click('button:has-text("Show code")')]);
    expect(await page.textContent("[data-language] pre")).toContain("auto");
    // Native disclosure.
    await page.click("[data-use-this-model] > summary");
    expect(await page.isVisible('[aria-labelledby="use-library"]')).toBe(true);
    // Files tab and the config viewer.
    await page.goto(`${server.url}/${CHAT}?tab=files&file=config.json`);
    const config = JSON.parse((await page.textContent("#file-viewer [data-code] pre")) ?? "{}") as Record<string, unknown>;
    expect(config["model_type"]).toBe("qwen2");
    await page.goto(`${server.url}/${CHAT}?tab=files&file=model-00001-of-00037.safetensors`);
    expect(await page.textContent("[data-not-stored]")).toContain("does not store");
    // A file the repository's list lacks: a 404 that says so, with no link to a file that is not there.
    const missing = await page.goto(`${server.url}/${CHAT}?tab=files&file=nonexistent.txt`);
    expect(missing?.status()).toBe(404);
    expect(await page.textContent("[data-not-in-repo]")).toContain("There is no file named nonexistent.txt in this repository's file list");
    expect(await page.$("[data-not-stored]")).toBeNull();
    await context.close();
  });
});

describe("screenshots", () => {
  it("captures light/dark, desktop/phone", { timeout: 240_000 }, async () => {
    const many = await db.db.selectFrom("model_details").innerJoin("models", "models.rid", "model_details.rid").select("models.id").orderBy((eb) => eb.fn("length", ["model_details.siblings"]), "desc").executeTakeFirstOrThrow();
    const shots: Array<[string, string, { scheme: "light" | "dark"; width: number; height: number }, string?]> = [
      ["bloom-desktop-light", "/bigscience/bloom", { scheme: "light", width: 1280, height: 900 }],
      ["bloom-desktop-dark", "/bigscience/bloom", { scheme: "dark", width: 1280, height: 900 }],
      ["bloom-phone-light", "/bigscience/bloom", { scheme: "light", width: 390, height: 844 }],
      ["bloom-phone-dark", "/bigscience/bloom", { scheme: "dark", width: 390, height: 844 }],
      ["use-menu-desktop-light", `/${CHAT}`, { scheme: "light", width: 1280, height: 900 }, "[data-use-this-model] > summary"],
      ["use-menu-phone-dark", `/${GGUF}`, { scheme: "dark", width: 390, height: 844 }, "[data-use-this-model] > summary"],
      ["inference-desktop-dark", `/${CHAT}?tab=inference&provider=together`, { scheme: "dark", width: 1280, height: 900 }],
      ["inference-phone-light", `/${CHAT}?tab=inference&provider=together`, { scheme: "light", width: 390, height: 844 }],
      ["files-desktop-light", `/${many.id}?tab=files`, { scheme: "light", width: 1280, height: 900 }],
      ["config-viewer-desktop-dark", `/${CHAT}?tab=files&file=tokenizer_config.json`, { scheme: "dark", width: 1280, height: 900 }],
      ["no-card-desktop-light", `/${GGUF}`, { scheme: "light", width: 1280, height: 900 }],
    ];
    for (const [name, url, opts, click] of shots) {
      const context = await newContext(opts);
      const page = await open(context, url);
      if (click) await page.click(click);
      await page.screenshot({ path: screenshot(`model-page-${name}.png`) });
      await context.close();
    }
    expect(fs.readdirSync(SCREENSHOTS).filter((f) => f.startsWith("model-page-")).length).toBeGreaterThanOrEqual(shots.length);
  });
});

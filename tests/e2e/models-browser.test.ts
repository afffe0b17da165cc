import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { formatCompact } from "#app/utils/format.ts";
import { openOfflinePage, waitForHydration } from "#tests/e2e/support/browser.ts";

/**
 * /models in a real browser against the real server and the bundled catalogue (5,240 models):
 * search, typing, every filter, sort, pagination, back/forward, an empty result, bad URLs, and
 * a render with JavaScript off. Screenshots go to test-results/screenshots/.
 */

const server = setupServer();
const browser = setupBrowser();

const open = (opts: Parameters<Browser["newContext"]>[0] = {}) => openOfflinePage(browser, opts);

/** Waits until React has hydrated, so clicks go through the client router. */
const hydrated = (page: Page) => waitForHydration(page, "#models-search");

/**
 * Waits until the rendered view is the one in the address bar. React Router moves the URL as soon
 * as the data arrives and React commits the new view just after, so reading the page on a URL
 * change alone can see the previous view.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[data-testid="results"]')?.getAttribute("data-view") === location.search);
}

const ids = (page: Page) => page.locator('[data-testid="model-link"]').allTextContents();
const countText = (page: Page) => page.locator('[data-testid="result-count"]').innerText();
const countOf = (text: string) => Number(text.replace(/[^\d]/g, ""));

async function badge(page: Page, testId: string): Promise<string> {
  const text = await page.locator(`[data-testid="${testId}"]`).first().innerText();
  return text.split("\n").at(-1)!.trim();
}

/**
 * Clicks a facet value and checks the page then shows exactly the count its badge promised, and
 * that the URL carries the filter.
 */
async function applyFacet(page: Page, testId: string, param: string, value: string): Promise<number> {
  const promised = await badge(page, testId);
  await page.locator(`[data-testid="${testId}"]`).first().click();
  await page.waitForURL((u) => u.searchParams.getAll(param).includes(value));
  await settled(page);
  const n = countOf(await countText(page));
  expect(formatCompact(n), `${testId} count`).toBe(promised);
  return n;
}

describe("/models in the browser", () => {
  it("renders and searches without JavaScript", async () => {
    const { context, page } = await open({ javaScriptEnabled: false });
    const res = await page.goto(`${server.url}/models`);
    expect(res?.status()).toBe(200);
    expect(await countText(page)).toBe("5,240 models");
    expect(await ids(page)).toHaveLength(30);
    await expect(page.locator('[data-testid="facets"]').count()).resolves.toBe(1);
    await page.fill("#models-search", "llama");
    await Promise.all([page.waitForURL(/search=llama/), page.press("#models-search", "Enter")]);
    const found = await ids(page);
    expect(found.length).toBeGreaterThan(0);
    for (const id of found) expect(id.toLowerCase()).toContain("llama");
    // A facet is a plain link, so filters work without JavaScript too.
    await Promise.all([page.waitForURL(/pipeline_tag=text-generation/), page.locator('[data-testid="facet-task-text-generation"]').first().click()]);
    expect(new URL(page.url()).searchParams.get("search")).toBe("llama");
    for (const chip of await page.locator('[data-testid="task-chip"]').allTextContents()) expect(chip).toBe("Text Generation");
    await context.close();
  });

  it("updates results while typing, after a debounce and without a full reload", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models`);
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.locator("#models-search").pressSequentially("qwen", { delay: 40 });
    await page.waitForURL(/search=qwen/);
    await settled(page);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    const found = await ids(page);
    expect(found.length).toBeGreaterThan(5);
    expect(countOf(await countText(page))).toBeLessThan(5240);
    await context.close();
  });

  it("narrows by each filter, with counts that match the facet badges", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models`);
    await hydrated(page);
    const total = countOf(await countText(page));
    const byTask = await applyFacet(page, "facet-task-text-generation", "pipeline_tag", "text-generation");
    expect(byTask).toBeLessThan(total);
    for (const chip of await page.locator('[data-testid="task-chip"]').allTextContents()) expect(chip).toBe("Text Generation");
    const byLib = await applyFacet(page, "facet-library-transformers", "library", "transformers");
    expect(byLib).toBeLessThanOrEqual(byTask);
    const byLicense = await applyFacet(page, "facet-license-apache-2.0", "license", "apache-2.0");
    expect(byLicense).toBeLessThanOrEqual(byLib);
    const byLang = await applyFacet(page, "facet-language-en", "language", "en");
    expect(byLang).toBeLessThanOrEqual(byLicense);
    const byTag = await applyFacet(page, "facet-tag-conversational", "other", "conversational");
    expect(byTag).toBeLessThanOrEqual(byLang);
    // Removing a filter through its chip restores the wider set.
    await page.getByRole("link", { name: "Remove Tag: conversational" }).click();
    await page.waitForURL((u) => !u.searchParams.has("other"));
    await settled(page);
    expect(countOf(await countText(page))).toBe(byLang);

    await page.goto(`${server.url}/models`);
    await hydrated(page);
    const providerLink = page.locator('[data-testid^="facet-provider-"]').first();
    const provider = (await providerLink.getAttribute("data-testid"))!.replace("facet-provider-", "");
    await applyFacet(page, `facet-provider-${provider}`, "inference_provider", provider);
    await page.goto(`${server.url}/models`);
    await hydrated(page);
    const sizeLink = page.locator('[data-testid^="facet-params-"]').first();
    const bucket = (await sizeLink.getAttribute("data-testid"))!.replace("facet-params-", "");
    await applyFacet(page, `facet-params-${bucket}`, "params", bucket);
    for (const row of await page.locator('[data-testid="model-list"] li').allTextContents()) expect(row).toMatch(/params/);
    await context.close();
  });

  it("sorts, and pages through results with page links", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models`);
    await hydrated(page);
    await page.selectOption("#models-sort", "likes");
    await page.waitForURL(/sort=likes/);
    await settled(page);
    const likes = await page.locator('[title$=" likes"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute("title")!.replace(/[^\d]/g, ""))));
    expect(likes.length).toBe(30);
    expect(likes).toEqual([...likes].sort((a, b) => b - a));

    const first = await ids(page);
    await page.getByRole("link", { name: "Next →" }).click();
    await page.waitForURL(/page=2/);
    await settled(page);
    const second = await ids(page);
    expect(second).toHaveLength(30);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    await page.getByRole("link", { name: "Page 3" }).click();
    await page.waitForURL(/page=3/);
    await settled(page);
    await expect(page.locator('nav[aria-label="Pagination"] [aria-current="page"]').innerText()).resolves.toBe("3");
    expect(new URL(page.url()).searchParams.get("sort")).toBe("likes");
    await context.close();
  });

  it("keeps the whole state in the URL, so back and forward restore each view", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models`);
    await hydrated(page);
    await page.locator("#models-search").pressSequentially("bert", { delay: 30 });
    await page.waitForURL(/search=bert/);
    await page.locator("#models-search").blur();
    await page.locator('[data-testid="facet-task-fill-mask"]').first().click();
    await page.waitForURL(/pipeline_tag=fill-mask/);
    await settled(page);
    const filtered = await countText(page);

    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get("search") === "bert" && !u.searchParams.has("pipeline_tag"));
    await expect(page.inputValue("#models-search")).resolves.toBe("bert");
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("search"));
    // The field can be gone for a moment while the view changes: wait for it, not fail on it.
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>("#models-search")?.value === "");
    expect(await countText(page)).toBe("5,240 models");
    // Forward twice, each step settled before the next (two in a row can abort the first's wait).
    await page.evaluate(() => history.forward());
    await page.waitForURL((u) => u.searchParams.get("search") === "bert" && !u.searchParams.has("pipeline_tag"));
    await page.evaluate(() => history.forward());
    await page.waitForURL(/pipeline_tag=fill-mask/);
    await page.waitForFunction((t) => document.querySelector('[data-testid="result-count"]')?.textContent === t, filtered);

    // A copied link reproduces the view in a fresh page.
    const copy = await context.newPage();
    await copy.goto(page.url());
    expect(await countText(copy)).toBe(filtered);
    expect(await ids(copy)).toEqual(await ids(page));
    await context.close();
  });

  it("explains an empty result and offers to clear the filters", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models?search=no-such-model-xyz&pipeline_tag=text-generation`);
    await hydrated(page);
    const empty = page.locator('[data-testid="empty-results"]');
    await expect(empty.innerText()).resolves.toContain("No model id contains “no-such-model-xyz”");
    expect(await countText(page)).toBe("0 models");
    await page.locator('[data-testid="clear-filters"]').click();
    await page.waitForURL((u) => u.pathname === "/models" && u.search === "");
    await settled(page);
    expect(await ids(page)).toHaveLength(30);
    await context.close();
  });

  it("ignores invalid parameters and says so, never failing the page", async () => {
    const { context, page } = await open();
    const res = await page.goto(`${server.url}/models?sort=bogus&page=-3&pipeline_tag=nope&language=zz&params=9-1&other=${"x".repeat(300)}`);
    expect(res?.status()).toBe(200);
    const problems = await page.locator('[data-testid="problems"] li').allTextContents();
    expect(problems.length).toBe(6);
    expect(problems.join(" ")).toContain("Unknown task “nope”");
    expect(await ids(page)).toHaveLength(30);
    // A page past the last one is a 404 that links to the last page, not a guess at the range.
    const deep = await page.goto(`${server.url}/models?page=99999`);
    expect(deep?.status()).toBe(404);
    expect(await page.locator('[data-testid="last-page-link"]').getAttribute("href")).toBe("/models?page=175");
    await context.close();
  });

  it("takes screenshots in light and dark, phone and desktop", async () => {
    for (const scheme of ["light", "dark"] as const) {
      for (const [name, viewport] of [
        ["phone", { width: 390, height: 844 }],
        ["desktop", { width: 1440, height: 900 }],
      ] as const) {
        const { context, page } = await open({ colorScheme: scheme, viewport, deviceScaleFactor: 1 });
        await page.goto(`${server.url}/models`);
        await hydrated(page);
        const file = screenshot(`models-${name}-${scheme}.png`);
        await page.screenshot({ path: file });
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
        await context.close();
      }
    }
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { openOfflinePage } from "#tests/e2e/support/browser.ts";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";

/**
 * Organisation pages and honest absences (issue 13, items 4 and 5) in a real browser on the
 * bundled catalogue, whose list-API rows carry no card, no config and no file sizes: /Qwen with
 * its count, sort, pages and a page past the end; /models?author= with its chip; a model page
 * without a card; the Files tab without sizes; dates from the snapshot. Screenshots go to
 * test-results/screenshots/.
 */

const HUB = (process.env.MODELYARD_HUB_URL ?? "https://huggingface.co").replace(/\/+$/, "");
/** A Qwen model of the bundled catalogue: a list-API row, so no card and no file sizes. */
const NO_CARD = "Qwen/Qwen2-7B-Instruct";

/** Qwen's models as the API lists them, most downloaded first. */
let qwenByDownloads: string[] = [];
const server = setupServer({}, async (s) => {
  const rows = (await (await fetch(`${s.url}/api/models?author=Qwen&sort=downloads&limit=1000`)).json()) as Array<{ id: string }>;
  qwenByDownloads = rows.map((r) => r.id);
});
const browser = setupBrowser();

const open = (opts: Parameters<Browser["newContext"]>[0] = {}) => openOfflinePage(browser, opts);

/** Waits until React has hydrated and the rendered view is the one in the address bar. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const results = document.querySelector('[data-testid="results"]');
    return !!results && Object.keys(results).some((k) => k.startsWith("__reactFiber")) && results.getAttribute("data-view") === location.search;
  });
}

const ids = (page: Page) => page.locator('[data-testid="model-link"]').allTextContents();
const text = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"]`).innerText();

describe("organisation pages", () => {
  it("lists the organisation's models with a count, a sort and pages", async () => {
    const total = qwenByDownloads.length;
    expect(total).toBeGreaterThan(60);
    const last = Math.ceil(total / 30);
    const { context, page } = await open();
    const res = await page.goto(`${server.url}/Qwen`);
    expect(res?.status()).toBe(200);
    await settled(page);
    expect(await page.locator("[data-org-page] h1").innerText()).toBe("Qwen");
    expect(await text(page, "org-count")).toBe(`${total} models`);
    expect(await text(page, "result-range")).toBe(`Models 1–30 of ${total}`);
    const first = await ids(page);
    expect(first).toHaveLength(30);
    expect(first.every((id) => id.startsWith("Qwen/"))).toBe(true);

    await page.selectOption("#org-sort", "downloads");
    await page.waitForURL((u) => u.pathname === "/Qwen" && u.search === "?sort=downloads");
    await settled(page);
    expect(await ids(page)).toEqual(qwenByDownloads.slice(0, 30));

    await page.getByRole("link", { name: "Next →" }).click();
    await page.waitForURL((u) => u.search === "?sort=downloads&page=2");
    await settled(page);
    expect(await ids(page)).toEqual(qwenByDownloads.slice(30, 60));
    expect(await text(page, "result-range")).toBe(`Models 31–60 of ${total}`);

    // The Hub's organisation-page names (sort_models) and a page number in p give the same view.
    await page.goto(`${server.url}/Qwen?sort_models=downloads&p=2`);
    expect(await ids(page)).toEqual(qwenByDownloads.slice(30, 60));

    // Past the last page: a 404 that says where the rows end and links to the last page.
    const past = await page.goto(`${server.url}/Qwen?sort=downloads&page=${last + 5}`);
    expect(past?.status()).toBe(404);
    expect(await page.locator('[data-testid="model-link"]').count()).toBe(0);
    expect(await text(page, "past-end")).toContain(`The ${total} models in this view fill pages 1 to ${last}.`);
    await page.locator('[data-testid="last-page-link"]').click();
    await page.waitForURL((u) => u.search === `?sort=downloads&page=${last}`);
    await settled(page);
    expect(await ids(page)).toEqual(qwenByDownloads.slice((last - 1) * 30));
    await context.close();
  });

  it("answers a name that is neither a model nor an author with a 404 and suggestions", async () => {
    const res = await fetch(`${server.url}/no-such-author-xyz`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("No model or author");
    // A legacy single-segment id is still a model page.
    const legacy = await fetch(`${server.url}/t5-base`);
    expect(legacy.status).toBe(200);
    expect(await legacy.text()).toContain('data-model-page="t5-base"');
  });

  it("filters /models by author with a removable chip", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models?author=Qwen`);
    await settled(page);
    expect(await text(page, "result-count")).toBe(`${qwenByDownloads.length} models`);
    expect((await ids(page)).every((id) => id.startsWith("Qwen/"))).toBe(true);
    const chip = page.getByRole("link", { name: "Remove Author: Qwen" });
    expect(await chip.innerText()).toContain("Author: Qwen");
    await chip.click();
    await page.waitForURL((u) => u.pathname === "/models" && u.search === "");
    await settled(page);
    expect(await text(page, "result-count")).toBe("5,240 models");
    await context.close();
  });

  it("says why a mapped provider is not offered: the client cannot call it for the model's task", async () => {
    const { context, page } = await open();
    // A bundled row mapped to hf-inference for text-to-video, which @huggingface/inference 3.13.1 has no client for.
    await page.goto(`${server.url}/AdamLucek/Wan2.1-T2V-14B-OldBookIllustrations`);
    expect(await page.locator("[data-no-provider]").innerText()).toBe(
      "This catalogue lists no inference provider for this model that it can call: it is mapped to hf-inference, which the @huggingface/inference client this site runs cannot call for text-to-video.",
    );
    // It points at no code "Use this model" lacks: the catalogue names no library for this row.
    expect(await page.locator("[data-use-this-model] [role=region]").textContent()).toContain("No usage code is known for this model: the catalogue names no library for it.");
    await context.close();
  });

  it("answers a playground for a model the catalogue lacks with a 404 that says so", async () => {
    const { context, page } = await open();
    const res = await page.goto(`${server.url}/playground/nobody/no-such-model`);
    expect(res?.status()).toBe(404);
    const main = await page.locator("main").innerText();
    expect(main).toContain("There is no model “nobody/no-such-model” in this catalogue.");
    expect(main).not.toContain("Internal Server Error");
    await context.close();
  });

  it("answers /playground with a way in, not a 404 for a model named 'playground'", async () => {
    const { context, page } = await open();
    const res = await page.goto(`${server.url}/playground`);
    expect(res?.status()).toBe(200);
    const main = await page.locator("main").innerText();
    expect(main).toContain("The playground runs one model at a time");
    expect(main).not.toContain("not found");
    // Each provider links to its listing, with the count the listing itself gives.
    const links = page.locator("[data-playground-providers] a");
    expect(await links.count()).toBeGreaterThan(0);
    const first = links.first();
    const href = (await first.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/models\?inference_provider=[\w-]+$/);
    const shown = Number((await first.innerText()).match(/([\d,]+) models?$/)?.[1]?.replaceAll(",", ""));
    const listing = await (await fetch(server.url + href)).text();
    expect(listing).toContain(`data-testid="result-count">${shown.toLocaleString("en-US")} model`);
    await context.close();
  });

  it("never shows a count beside 'no models match': a page past the end is a 404", async () => {
    const { context, page } = await open();
    const res = await page.goto(`${server.url}/models?search=llama&page=30`);
    expect(res?.status()).toBe(404);
    const count = Number((await text(page, "result-count")).replace(/\D/g, ""));
    const last = Math.ceil(count / 30);
    expect(await page.locator('[data-testid="empty-results"]').count()).toBe(0);
    expect(await text(page, "past-end")).toContain(`fill pages 1 to ${last}`);
    expect(await page.locator('[data-testid="last-page-link"]').getAttribute("href")).toBe(`/models?search=llama&page=${last}`);
    const deep = await page.goto(`${server.url}/models?page=999`);
    expect(deep?.status()).toBe(404);
    expect(await page.content()).not.toContain("pages run from");
    expect(await text(page, "past-end")).toContain("The 5,240 models in this view fill pages 1 to 175.");
    await context.close();
  });
});

describe("honest absences", () => {
  it("says the catalogue, not the authors, lacks the card, and links to the Hub", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/${NO_CARD}`);
    const empty = page.locator("[data-card-empty]");
    const said = await empty.innerText();
    expect(said).toContain(`This catalogue has no model card for ${NO_CARD}`);
    expect(said).toContain("Qwen__Qwen2-7B-Instruct.md");
    expect(said).toContain("modelyard import");
    expect(said).toContain("MODELYARD_LIVE=1");
    expect(await page.content()).not.toContain("have not written");
    expect(await empty.locator("[data-hub-link]").getAttribute("href")).toBe(`${HUB}/${NO_CARD}`);

    // Dates from the snapshot are absolute; the counts say which day they are from.
    const facts = await page.locator("header dl").innerText();
    expect(facts).toMatch(/Created\s+\d{4}-\d{2}-\d{2}/);
    expect(facts).toMatch(/Counts as of\s+2024-07-11 snapshot/);
    expect(facts).not.toMatch(/ago/);

    // The author leads to the organisation's page.
    await page.locator("[data-org-link]").click();
    await page.waitForURL((u) => u.pathname === "/Qwen");
    expect(await page.locator("[data-org-page] h1").innerText()).toBe("Qwen");
    await context.close();
  });

  it("says a repository has no README when the catalogue holds an empty card, without advice to fetch it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "empty-card-"));
    try {
      const records = [
        { id: "empty-card/repo", readme: "", pipeline_tag: "fill-mask", downloads: 3 },
        // As a card folder or local folder import gives: no counts at all.
        { id: "no-counts/repo", readme: "# A local model\n" },
      ];
      fs.writeFileSync(path.join(dir, "empty.jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n");
      await importIntoServer(server, path.join(dir, "empty.jsonl"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const html = await (await fetch(`${server.url}/empty-card/repo`)).text();
    expect(html).toContain("data-card-known-empty");
    expect(html).toContain("has no README, or an empty one");
    expect(html).not.toContain("MODELYARD_LIVE=1");

    // Counts the catalogue does not hold are said to be missing, not shown as zeros.
    const { context, page } = await open();
    await page.goto(`${server.url}/no-counts/repo`);
    const facts = await page.locator("header dl").innerText();
    expect(facts).toMatch(/Downloads and likes\s+not in this catalogue/);
    expect(facts).not.toMatch(/Likes\s+0/);
    await page.goto(`${server.url}/empty-card/repo`);
    expect(await page.locator("header dl").innerText()).toMatch(/Downloads \(last 30 days\)\s+3/);
    await context.close();
  });

  it("states no counts for a dated snapshot's row that has none, on the page, in its description, in listings and in the API", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "no-counts-"));
    const id = "sparse-snapshot/no-counts-in-dump";
    try {
      // As 225 of the bundled catalogue's rows are: the file's name dates it, the row has no counts.
      const file = path.join(dir, "models-2024-07-11.jsonl");
      fs.writeFileSync(file, JSON.stringify({ id, tags: [], pipeline_tag: "text-to-video" }) + "\n");
      await importIntoServer(server, file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const { context, page } = await open();
    await page.goto(`${server.url}/${id}`);
    const facts = await page.locator("header dl").innerText();
    expect(facts).toMatch(/Downloads and likes\s+not in this catalogue/);
    expect(facts).not.toMatch(/snapshot/);
    // No library named is not a library @huggingface/tasks does not describe.
    const use = await page.locator("[data-use-this-model]").textContent();
    expect(use).toContain("No usage code is known for this model: the catalogue names no library for it.");
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description).toContain(id);
    expect(description).not.toMatch(/downloads|likes/);
    await page.goto(`${server.url}/models?search=no-counts-in-dump`);
    const row = page.locator("[data-testid=model-list] li", { hasText: id });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator("[title*=downloads], [title*=likes]").count()).toBe(0);
    // Nor a file count: no list is not an empty repository.
    await page.goto(`${server.url}/${id}?tab=files`);
    expect((await page.locator("#file-list").innerText()).trim()).toBe("Files");
    expect(await page.locator("main").innerText()).toContain("no file list");
    await context.close();
    const info = (await (await fetch(`${server.url}/api/models/${id}`)).json()) as Record<string, unknown>;
    expect(info).toMatchObject({ id, pipeline_tag: "text-to-video" });
    expect(info).not.toHaveProperty("downloads");
    expect(info).not.toHaveProperty("likes");
  });

  it("leaves unknown file sizes out instead of dashing them", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/${NO_CARD}?tab=files`);
    const table = page.locator("table");
    expect(await table.locator("tbody tr").count()).toBeGreaterThan(3);
    expect(await table.innerText()).not.toContain("—");
    expect(await table.locator("th", { hasText: "Size" }).count()).toBe(0);
    expect(await page.locator("[data-no-sizes]").innerText()).toContain("not their sizes");
    await context.close();
  });

  it("dates listing rows from a snapshot absolutely, never as an age", async () => {
    const { context, page } = await open();
    await page.goto(`${server.url}/models?sort=created`);
    await settled(page);
    const rows = await page.locator('[data-testid="model-list"] > li').allInnerTexts();
    expect(rows).toHaveLength(30);
    for (const row of rows) {
      expect(row).not.toMatch(/\bago\b|yesterday|today/);
      expect(row).toMatch(/(Created|Updated) \d{4}-\d{2}-\d{2}/);
    }
    await context.close();
  });
});

describe("screenshots", () => {
  it("takes /Qwen, /models?author=Qwen and a model without a card in light and dark, phone and desktop", async () => {
    const pages = [
      ["org", "/Qwen"],
      ["author-filter", "/models?author=Qwen"],
      ["no-card", `/${NO_CARD}`],
      ["no-sizes", `/${NO_CARD}?tab=files`],
    ] as const;
    for (const scheme of ["light", "dark"] as const) {
      for (const [name, viewport] of [
        ["phone", { width: 390, height: 844 }],
        ["desktop", { width: 1280, height: 900 }],
      ] as const) {
        const { context, page } = await open({ colorScheme: scheme, viewport, deviceScaleFactor: 1 });
        for (const [label, url] of pages) {
          await page.goto(server.url + url);
          const file = screenshot(`${label}-${name}-${scheme}.png`);
          await page.screenshot({ path: file, fullPage: label.startsWith("no-") });
          expect(fs.statSync(file).size).toBeGreaterThan(5_000);
        }
        await context.close();
      }
    }
  });
});

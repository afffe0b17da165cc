/**
 * Code shown as guidance works with the pinned libraries (issue 32, item 11), as a visitor sees it
 * in Chromium against the real server on the bundled catalogue: the text-generation guide no longer
 * calls `inference.conversational` (which @huggingface/inference 3.13.1 does not have), and an
 * image-classification model's fetch code sends the image's bytes instead of
 * `JSON.stringify({ inputs: "cats.jpg" })` labelled image/jpeg. Every JavaScript block on those
 * pages is resolved against the installed libraries (tests/support/js-snippet-calls.ts).
 * Providers are the SIMULATOR; nothing is run.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { setupBrowser, setupOfflinePage, setupServer, setupSimulator } from "#tests/e2e/support/journey.ts";
import { missingCalls } from "#tests/support/js-snippet-calls.ts";

const VIT = "google/vit-base-patch16-224";

const sim = setupSimulator();
const server = setupServer(() => ({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url } }));
const browser = setupBrowser();
const { page } = setupOfflinePage(browser, { viewport: { width: 1200, height: 900 } });

/** The guide's JavaScript code blocks as the page shows them. */
const guideJs = (p: Page) =>
  p.$$eval('[aria-label$=" guide"] pre[data-language="javascript"], [aria-label$=" guide"] pre[data-language="js"]', (els) => els.map((e) => e.textContent ?? ""));

/** The inference panel's code blocks for the language in the URL. */
const panelCode = (p: Page) => p.$$eval("[data-inference-panel] [data-language] [data-code] pre", (els) => els.map((e) => e.textContent ?? ""));

function expectCallsResolve(blocks: string[]): void {
  expect(blocks.flatMap((code) => missingCalls(code).map((problem) => `${problem}\n${code}`))).toEqual([]);
}

describe("task guides", () => {
  it("/tasks/text-generation shows a text-generation call, not inference.conversational on a classifier", async () => {
    await page.goto(`${server.url}/tasks/text-generation`);
    const blocks = await guideJs(page);
    expect(blocks).toHaveLength(1);
    expectCallsResolve(blocks);
    expect(blocks[0]).toContain('await inference.textGeneration({\n\tmodel: "HuggingFaceH4/zephyr-7b-beta",');
    const text = await page.locator("main").innerText();
    expect(text).not.toContain("inference.conversational");
    expect(text).not.toContain("distilbert-base-uncased-finetuned-sst-2-english");
    expect(text).toContain("to infer text generation models on Hugging Face Hub.");
  });

  it("/tasks/image-classification: its JavaScript calls what the library has", async () => {
    await page.goto(`${server.url}/tasks/image-classification`);
    const blocks = await guideJs(page);
    expect(blocks).toHaveLength(1);
    expectCallsResolve(blocks);
    expect(blocks[0]).toContain("await inference.imageClassification({");
    expect(await page.locator("main").innerText()).not.toContain("conversational(");
  });
});

describe(`${VIT}'s inference code`, () => {
  it("fetch sends the image's bytes as image/jpeg, and huggingface.js imports the fs it reads the file with", async () => {
    await page.goto(`${server.url}/${VIT}?tab=inference&provider=hf-inference&lang=js`);
    const blocks = await panelCode(page);
    expect(blocks).toHaveLength(2);
    expectCallsResolve(blocks);
    const [fetchCode = "", hfJs = ""] = blocks;
    expect(fetchCode).toContain('"Content-Type": "image/jpeg",');
    expect(fetchCode).toContain("body: fs.readFileSync(filename),");
    expect(fetchCode).toContain('query("cats.jpg").then(');
    expect(fetchCode).not.toContain("JSON.stringify(data)");
    expect(fetchCode).not.toContain("inputs:");
    expect(hfJs).toMatch(/^import fs from "node:fs";\n/);
    expect(hfJs).toContain(`await client.imageClassification({\n\tdata,\n\tmodel: "${VIT}",`);
  });

  it("cURL posts the file itself, as it did", async () => {
    await page.goto(`${server.url}/${VIT}?tab=inference&provider=hf-inference&lang=sh`);
    const [curl = ""] = await panelCode(page);
    expect(curl).toContain("-H 'Content-Type: image/jpeg' \\\n    --data-binary @\"cats.jpg\"");
    expect(curl).not.toMatch(/-d '/);
  });
});

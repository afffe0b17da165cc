/**
 * "Use this model" on the bundled catalogue, whose rows carry no config: the Transformers code is
 * built from the derived transformersInfo (ADR 0014), so a list row gets a real pipeline snippet
 * and real Auto classes instead of "Type of model unknown", exactly as @huggingface/tasks writes
 * them for that metadata; screenshots of the menu light and dark, phone and desktop.
 */
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupDatabase, setupServer } from "#tests/e2e/support/journey.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { getLibrarySnippets } from "#app/snippets/library-snippets.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";

const CASES = [
  { id: "meta-llama/Meta-Llama-3-8B-Instruct", task: "text-generation", model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
  { id: "openai/whisper-large-v3", task: "automatic-speech-recognition", model: "AutoModelForSpeechSeq2Seq", processor: "AutoProcessor" },
  { id: "bigscience/bloom", task: "text-generation", model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
] as const;

const server = setupServer();
const db = setupDatabase(server);
const browser = setupBrowser();

async function openMenu(id: string, opts: { scheme?: "light" | "dark"; width?: number; height?: number } = {}): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ colorScheme: opts.scheme ?? "light", viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 } });
  await allowOnlyLoopback(context);
  const page = await context.newPage();
  await page.goto(`${server.url}/${id}`, { waitUntil: "load" });
  await page.click("[data-use-this-model] > summary");
  return { page, context };
}

describe("Transformers code for list rows without a config", () => {
  it.each(CASES)("$id: a pipeline for its task and $model / $processor, exactly as @huggingface/tasks writes them", async (c) => {
    const m = await getModelById(db.db, c.id);
    expect(m, `${c.id} is in the bundled catalogue`).not.toBeNull();
    expect(m!.config).toBeNull();
    expect(m!.transformersInfo).toMatchObject({ auto_model: c.model, processor: c.processor });
    const expected = getLibrarySnippets(m!)!.snippets;

    const { page, context } = await openMenu(c.id);
    const shown = await page.$$eval('[aria-labelledby="use-library"] [data-code] pre', (els) => els.map((e) => e.textContent ?? ""));
    expect(shown).toEqual(expected);
    const all = shown.join("\n");
    expect(all).toContain(`pipeline("${c.task}", model="${c.id}")`);
    expect(all).toContain(`from transformers import ${c.processor}, ${c.model}`);
    expect(all).toContain(`${c.model}.from_pretrained("${c.id}")`);
    expect(all).not.toMatch(/Type of model unknown/);
    await context.close();
  });

  it("captures the menu light and dark, phone and desktop", { timeout: 120_000 }, async () => {
    for (const [name, opts] of [
      ["derived-usage-desktop-light", { scheme: "light", width: 1280, height: 900 }],
      ["derived-usage-desktop-dark", { scheme: "dark", width: 1280, height: 900 }],
      ["derived-usage-phone-light", { scheme: "light", width: 390, height: 844 }],
      ["derived-usage-phone-dark", { scheme: "dark", width: 390, height: 844 }],
    ] as const) {
      const { page, context } = await openMenu(CASES[0].id, opts);
      await page.screenshot({ path: screenshot(`${name}.png`), fullPage: false });
      await context.close();
    }
  });
});

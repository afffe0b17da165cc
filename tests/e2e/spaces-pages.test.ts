import { TASKS_DATA } from "@huggingface/tasks";
import { describe, expect, it } from "vitest";
import { setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { allowOnlyLoopback, waitForHydration } from "#tests/e2e/support/browser.ts";

/**
 * /spaces and /spaces/<org>/<name> against the real server and bundled catalogue: Spaces from
 * model records and from @huggingface/tasks' task guides, search, model ↔ Space links.
 */

const server = setupServer();
const browser = setupBrowser();

const html = async (path: string) => {
  const res = await fetch(server.url + path);
  return { status: res.status, text: await res.text() };
};

describe("Spaces", () => {
  it("lists Spaces from model records and from the task guides, with search", async () => {
    const all = await html("/spaces");
    expect(all.status).toBe(200);
    expect(all.text).toMatch(/data-testid="spaces-count">[\d,]+ Spaces</);
    // Most-linked first: a Space several bundled models name.
    expect(all.text).toContain('href="/spaces/Justinrune/LLaMA-Factory"');

    const task = Object.entries(TASKS_DATA).find(([, d]) => (d?.spaces?.length ?? 0) > 0)!;
    const taskSpace = task[1]!.spaces[0]!;
    const found = await html(`/spaces?search=${encodeURIComponent(taskSpace.id.toUpperCase())}`);
    expect(found.text).toContain(`href="/spaces/${taskSpace.id}"`);
    // React escapes text as HTML.
    const escaped = taskSpace.description.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
    expect(found.text).toContain(escaped);

    const byTask = await html(`/spaces?task=${task[0]}`);
    for (const s of task[1]!.spaces) expect(byTask.text).toContain(`href="/spaces/${s.id}"`);

    const none = await html("/spaces?search=no-such-space-anywhere");
    expect(none.text).toContain('data-testid="spaces-empty"');
    // A page that is not a number shows the first page and says so, in /models' words.
    const banana = await html("/spaces?page=banana&task=nope");
    expect(banana.status).toBe(200);
    expect(banana.text).toContain("Page “banana” is not a page number; showing the first page.");
    // React separates the text's parts with empty comments.
    expect(banana.text.replaceAll("<!-- -->", "")).toContain("Unknown task “nope” was ignored.");
    expect(banana.text).toContain('data-testid="space-list"');
    expect(all.text).not.toContain("is not a page number");
  });

  it("says when a model filter names a model the catalogue lacks, or one no Space uses, without blaming a search", async () => {
    // It linked "Spaces that use bogus/x" to /bogus/x, a 404, and said "No Spaces match" with a search hint.
    const unknown = (await html("/spaces?model=bogus/x")).text.replaceAll("<!-- -->", "");
    expect(unknown).toContain("There is no model “bogus/x” in this catalogue, so no Space here uses it.");
    expect(unknown).not.toContain('href="/bogus/x"');
    expect(unknown).not.toContain("No Spaces match.");
    expect(unknown).not.toContain("Search matches any part of a Space id");
    // A list-API row that no Space names: the page links the model and says no Space uses it.
    const none = (await html("/spaces?model=deepseek-ai/DeepSeek-V3")).text.replaceAll("<!-- -->", "");
    expect(none).toContain('href="/deepseek-ai/DeepSeek-V3"');
    expect(none).toContain("No Space in this catalogue uses deepseek-ai/DeepSeek-V3.");
    expect(none).not.toContain("Search matches any part of a Space id");
    // A search still gets the hint, and clearing it keeps the model filter.
    const searched = (await html("/spaces?model=deepseek-ai/DeepSeek-V3&search=zzz")).text;
    expect(searched).toContain("Search matches any part of a Space id");
    expect(searched).toContain('href="/spaces?model=deepseek-ai%2FDeepSeek-V3"');
  });

  it("answers a page past the last one with a 404 that says where the Spaces end", async () => {
    const all = await html("/spaces");
    const total = Number(/data-testid="spaces-count">([\d,]+) Spaces</.exec(all.text)![1]!.replace(/,/g, ""));
    const last = Math.ceil(total / 30);
    for (const page of [last + 1, 999, 100_000]) {
      const past = await html(`/spaces?page=${page}`);
      expect(past.status).toBe(404);
      expect(past.text).toContain('data-testid="past-end"');
      expect(past.text).not.toContain('data-testid="spaces-empty"');
      expect(past.text).toContain(`pages 1 to ${last}`);
      expect(past.text).toContain(`href="/spaces?page=${last}"`);
    }
    const lastPage = await html(`/spaces?page=${last}`);
    expect(lastPage.status).toBe(200);
    expect(lastPage.text).toContain('data-testid="space-list"');
    // A search with one page: page 2 is past it, and the link goes back to page 1.
    const one = await html("/spaces?search=LLaMA-Factory&page=2");
    expect(one.status).toBe(404);
    expect(one.text).toContain("one page");
    expect(one.text).toContain('href="/spaces?search=LLaMA-Factory"');
  });

  it("shows where a Space lives, links out, and links back to its models", async () => {
    const page = await html("/spaces/Justinrune/LLaMA-Factory");
    expect(page.status).toBe(200);
    expect(page.text).toContain("hosted on the Hugging Face Hub");
    expect(page.text).toContain('href="https://huggingface.co/spaces/Justinrune/LLaMA-Factory"');
    const models = [...page.text.matchAll(/data-testid="model-link"[^>]*>([^<]+)</g)].map((m) => m[1]!);
    expect(models.length).toBeGreaterThan(5);
    // Each of those models lists this Space back.
    const back = await html(`/spaces?model=${encodeURIComponent(models[0]!)}`);
    expect(back.text).toContain('href="/spaces/Justinrune/LLaMA-Factory"');

    const missing = await html("/spaces/nobody/nothing-here");
    expect(missing.status).toBe(404);
    expect(missing.text).toContain("Space not found");
  });

  it("fits a phone's width, however long the Space's address", async () => {
    const width = 390;
    const context = await browser.newContext({ viewport: { width, height: 844 }, isMobile: true });
    await allowOnlyLoopback(context);
    const page = await context.newPage();
    try {
      // Among the bundled catalogue's longest Space ids: its Hub address, in monospace, once widened the page.
      for (const id of ["eduagarcia/open_pt_llm_leaderboard", "Justinrune/LLaMA-Factory"]) {
        await page.goto(`${server.url}/spaces/${id}`);
        expect(await page.locator('[data-testid="space-external"]').count()).toBe(1);
        // Against the screen's width: a mobile viewport grows innerWidth to fit what overflows.
        expect(await page.evaluate(() => document.documentElement.scrollWidth), id).toBeLessThanOrEqual(width);
      }
    } finally {
      await context.close();
    }
  });

  it("links model rows to their Spaces", async () => {
    const context = await browser.newContext();
    await allowOnlyLoopback(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/models?search=Qwen2-7B-Instruct`);
    const link = page.locator('li:has([data-testid="model-link"]:text-is("Qwen/Qwen2-7B-Instruct")) a[href^="/spaces?model="]');
    await expect(link.innerText()).resolves.toMatch(/^\d+ Spaces$/);
    // Clicked once the listing has hydrated: under load a click during hydration was lost.
    await waitForHydration(page, '[data-testid="results"]');
    await Promise.all([page.waitForURL(/\/spaces\?model=Qwen/), link.click()]);
    expect(await page.locator('[data-testid="space-list"] li').count()).toBeGreaterThan(1);
    await context.close();
  });
});

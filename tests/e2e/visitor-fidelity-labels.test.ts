/**
 * What the bundled catalogue's pages claim, checked against what the data holds (issue 32, items
 * 10 and 12), in Chromium against the real server: the sorts say what they cannot rank, the guide's
 * example recording says when it cannot play, /playground picks a model, and on a phone the Files
 * tab's names and the model page's tabs read whole. Nothing here leaves the machine.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { setupBrowser, setupOfflinePage, setupServer } from "#tests/e2e/support/journey.ts";

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true };
const GGUF_REPO = "QuantFactory/llama3-turbcat-instruct-8b-GGUF";
const CHAT_MODEL = "meta-llama/Meta-Llama-3-8B-Instruct";

const server = setupServer();
const browser = setupBrowser();
const offline = setupOfflinePage(browser, { viewport: { width: 1280, height: 900 } });
const { page } = offline;

/** One number from the server's own database, read beside it (the test's copy of the bundled catalogue). */
function count(query: string, ...params: string[]): number {
  const db = new Database(server.databaseUrl.replace(/^sqlite:/, ""), { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare(query).get(...params) as { n: number }).n);
  } finally {
    db.close();
  }
}

const fmt = (n: number) => n.toLocaleString("en-US");

describe("sort notes", () => {
  it("Trending names the snapshot it ranks and how many models it cannot rank", async () => {
    const total = count("select count(*) as n from models");
    const unscored = count("select count(*) as n from models where trending_score <= 0");
    const dates = count("select count(distinct stats_as_of) as n from models where trending_score > 0");
    expect(unscored).toBeGreaterThan(0);
    expect(dates).toBe(1);
    await page.goto(`${server.url}/models`);
    expect(await page.locator("[data-testid=sort-note]").innerText()).toBe(
      `Trending is estimated here from the likes, downloads and ages in the 2024-07-11 snapshot. ${fmt(unscored)} of these ${fmt(total)} models have no trending score from it and come last, in the order the catalogue received them.`,
    );
    // Where the note says the ranking stops, the listing's rows stop having counts (the models
    // without a score are the ones the snapshot did not hold).
    const ranked = total - unscored;
    await page.goto(`${server.url}/models?page=${Math.floor(ranked / 30) + 1}`);
    const rows = await page.locator("[data-testid=model-list] > li").allInnerTexts();
    const firstUnranked = ranked % 30;
    if (firstUnranked > 0) expect(rows[firstUnranked - 1]).toContain("↓");
    expect(rows[firstUnranked]).not.toContain("↓");
  });

  it("Recently updated says how many of the matches have an update date, for the catalogue and for a search", async () => {
    const total = count("select count(*) as n from models");
    const dated = count("select count(*) as n from models where last_modified is not null");
    expect(dated).toBeLessThan(total);
    await page.goto(`${server.url}/models?sort=updated`);
    expect(await page.locator("[data-testid=sort-note]").innerText()).toBe(
      `${fmt(dated)} of these ${fmt(total)} models have an update date and come first; the other ${fmt(total - dated)} follow in the order the catalogue received them.`,
    );
    const matches = count("select count(*) as n from models where id like ?", "%llama%");
    const datedMatches = count("select count(*) as n from models where id like ? and last_modified is not null", "%llama%");
    await page.goto(`${server.url}/models?sort=updated&search=llama`);
    await expect.poll(() => page.locator("[data-testid=result-count]").innerText()).toBe(`${fmt(matches)} models`);
    expect(await page.locator("[data-testid=sort-note]").innerText()).toContain(`${fmt(datedMatches)} of these ${fmt(matches)} models have an update date`);
    // The page the note points at: the first one whose rows run past the dated ones shows an undated row.
    const pageOfFirstUndated = Math.floor(datedMatches / 30) + 1;
    await page.goto(`${server.url}/models?sort=updated&search=llama&page=${pageOfFirstUndated}`);
    const rows = await page.locator("[data-testid=model-list] > li").allInnerTexts();
    const undatedFrom = datedMatches % 30;
    if (undatedFrom > 0) expect(rows[undatedFrom - 1]).toContain("Updated");
    expect(rows[undatedFrom]).not.toContain("Updated");
  });

  it("Recently created says how many models have no creation date, and the listing puts them last", async () => {
    const total = count("select count(*) as n from models");
    const undated = count("select count(*) as n from models where created_at is null");
    expect(undated).toBeGreaterThan(0);
    await page.goto(`${server.url}/models?sort=created`);
    expect(await page.locator("[data-testid=sort-note]").innerText()).toBe(
      `${fmt(total - undated)} of these ${fmt(total)} models have a creation date and come first; the other ${fmt(undated)} follow in the order the catalogue received them.`,
    );
  });

  it("Most downloads and Most likes say how many models have no counts, and the listing shows those rows without one", async () => {
    const total = count("select count(*) as n from models");
    const uncounted = count("select count(*) as n from models where stats_as_of is null and downloads = 0 and likes = 0");
    expect(uncounted).toBeGreaterThan(0);
    await page.goto(`${server.url}/models?sort=downloads`);
    expect(await page.locator("[data-testid=sort-note]").innerText()).toBe(`${fmt(uncounted)} of these ${fmt(total)} models have no download count here and rank as zero.`);
    await page.goto(`${server.url}/models?sort=likes`);
    expect(await page.locator("[data-testid=sort-note]").innerText()).toBe(`${fmt(uncounted)} of these ${fmt(total)} models have no like count here and rank as zero.`);
    // On the bundled catalogue the models without counts came last, so the last page shows none.
    await page.goto(`${server.url}/models?sort=downloads&page=${Math.ceil(total / 30)}`);
    const rows = await page.locator("[data-testid=model-list] > li").allInnerTexts();
    expect(rows.at(-1)).not.toContain("↓");
  });
});

describe("the task guide's example recording, offline", () => {
  it("openai/whisper-large-v3 says its example recording cannot play before anyone presses play", async () => {
    await page.goto(`${server.url}/openai/whisper-large-v3`);
    const media = page.locator("#demo [data-example-side=inputs] [data-example-media=audio]");
    await expect.poll(() => media.evaluate((el) => el.tagName), { timeout: 15_000 }).toBe("P");
    const text = await media.innerText();
    expect(text).toContain("input.flac");
    expect(text).toContain("cannot be played here");
    expect(text).toContain("huggingface.co");
    expect(await page.locator("#demo [data-example-side=inputs] audio").count()).toBe(0);
  });
});

describe("the playground's model picker", () => {
  it("searches the models that can run here and links each to its playground", async () => {
    await page.goto(`${server.url}/playground`);
    await page.locator("#playground-search").fill("llama");
    await page.getByRole("button", { name: "Search", exact: true }).last().click();
    await page.waitForURL(/\/playground\?q=llama/);
    const links = page.locator("[data-playground-models] a");
    await expect.poll(() => links.count()).toBeGreaterThan(5);
    const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute("href") ?? ""));
    for (const href of hrefs) expect(href.toLowerCase()).toMatch(/^\/playground\/[^/]+\/[^/]*llama/);
    // The newest ones, with no download count, are there too.
    expect(hrefs).toContain("/playground/meta-llama/Llama-3.3-70B-Instruct");
    await page.locator('[data-playground-models] a[href="/playground/meta-llama/Llama-3.3-70B-Instruct"]').click();
    await page.waitForSelector("[data-chat-demo]");
    expect(await page.locator("main").innerText()).not.toContain("cannot be run");
  });

  it("pages through every runnable model, without JavaScript too", async () => {
    await offline.reopen({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    await page.goto(`${server.url}/playground`);
    const first = await page.locator("[data-playground-models] a").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(first.length).toBe(20);
    await page.locator("nav[aria-label=Pagination]").getByRole("link", { name: "Page 2" }).click();
    await page.waitForURL(/page=2/);
    const second = await page.locator("[data-playground-models] a").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(second.length).toBe(20);
    expect(second.filter((h) => first.includes(h))).toEqual([]);
    expect(await page.locator("[data-playground-range]").innerText()).toContain("models 21–40");
    // The search is a plain GET form.
    await page.locator("#playground-search").fill("whisper-large-v3");
    await page.locator("#playground-search").press("Enter");
    await page.waitForURL(/q=whisper-large-v3/);
    const found = await page.locator("[data-playground-models] a").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(found).toContain("/playground/openai/whisper-large-v3");
    expect(await page.locator("[data-playground-models]").innerText()).toContain("Automatic Speech Recognition");
  });

  it("says when nothing matching can run here", async () => {
    await page.goto(`${server.url}/playground?q=no-such-model-anywhere`);
    expect(await page.locator("[data-playground-none]").innerText()).toContain("No model whose id contains “no-such-model-anywhere” can run here");
    // A page past the last is a 404, as the listing's is, that still offers the way back.
    const past = await page.goto(`${server.url}/playground?q=whisper-large-v3&page=40`);
    expect(past?.status()).toBe(404);
    expect(await page.locator("main").innerText()).toContain("There is no page 40 of these models");
    // Beyond the picker's deepest page too: it was page 1 with a 200, as if page 999 existed.
    const beyond = await page.goto(`${server.url}/playground?page=999`);
    expect(beyond?.status()).toBe(404);
    expect(await page.locator("main").innerText()).toContain("There is no page 999 of these models");
    // A page that is not a number shows the first page and says so, in /models' words.
    const notNumber = await page.goto(`${server.url}/playground?page=abc`);
    expect(notNumber?.status()).toBe(200);
    expect(await page.locator("[data-testid=problems]").innerText()).toBe("Page “abc” is not a page number; showing the first page.");
    expect(await page.locator("[data-playground-models] li").count()).toBeGreaterThan(0);
  });
});

describe("on a phone", () => {
  it(`the Files tab of ${GGUF_REPO} shows each GGUF file's whole name`, async () => {
    await offline.reopen(PHONE);
    await page.goto(`${server.url}/${GGUF_REPO}?tab=files`);
    const links = page.locator('section[aria-labelledby=file-list] td a[href$=".gguf"], section[aria-labelledby=file-list] td a[href*=".gguf?"]');
    await expect.poll(() => links.count()).toBeGreaterThan(5);
    const shown = await links.evaluateAll((els) =>
      els.map((a) => {
        const cell = a.closest("td")!;
        const r = a.getBoundingClientRect();
        return { text: (a as HTMLElement).innerText.replace(/\s+/g, ""), clipped: cell.scrollWidth > cell.clientWidth, right: r.right };
      }),
    );
    for (const s of shown) {
      expect(s.clipped, s.text).toBe(false);
      expect(s.right, s.text).toBeLessThanOrEqual(390);
    }
    const texts = shown.map((s) => s.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts).toContain("llama3-turbcat-instruct-8b.Q4_K_M.gguf");
  });

  it(`the model page's tabs read whole, the active "Chat template" among them`, async () => {
    await offline.reopen(PHONE);
    await page.goto(`${server.url}/${CHAT_MODEL}?tab=chat-template`);
    const nav = page.locator("nav[aria-label='Model page sections']");
    const tabs = await nav.locator("a").evaluateAll((els) => {
      const box = els[0]!.closest("nav")!.getBoundingClientRect();
      return els.map((a) => {
        const r = a.getBoundingClientRect();
        return { text: (a as HTMLElement).innerText, current: a.getAttribute("aria-current"), inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5, whole: a.scrollWidth <= a.clientWidth };
      });
    });
    expect(tabs.map((t) => t.text)).toEqual(["Model card", "Files", "Inference providers", "Chat template"]);
    for (const t of tabs) {
      expect(t.inside, t.text).toBe(true);
      expect(t.whole, t.text).toBe(true);
    }
    expect(tabs.find((t) => t.current === "page")?.text).toBe("Chat template");
    expect(await nav.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });
});

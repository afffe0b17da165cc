/**
 * Browser journeys through /tasks and /tasks/<id> on the real server: grouping, colours and
 * counts; the filter (with and without JavaScript); navigating into a task; heading anchors;
 * "Propose updates" links built from a custom URL template; demo rendering of every entry type
 * with media from a local asset host; and the fallback once that host is gone.
 */
import { MODALITIES, MODALITY_LABELS, PIPELINE_DATA, TASKS_DATA } from "@huggingface/tasks";
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { setupBrowser, setupDatabase, setupServer, setupTaskAssetHost } from "#tests/e2e/support/journey.ts";
import { TASK_COLORS } from "#app/catalog/task-colors.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";

const PROPOSE_TEMPLATE = "https://git.example.org/fork/catalogue/-/blob/main/tasks/{task}/{file}";

const assets = setupTaskAssetHost();
const server = setupServer(() => ({ env: { MODELYARD_TASK_ASSET_BASE: assets.base, MODELYARD_PROPOSE_URL_TEMPLATE: PROPOSE_TEMPLATE } }));
const handle = setupDatabase(server);
const browser = setupBrowser();

async function newPage(opts: { javaScriptEnabled?: boolean } = {}): Promise<{ page: Page; context: BrowserContext; blocked: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
  const blocked = await allowOnlyLoopback(context);
  const page = await context.newPage();
  return { page, context, blocked };
}

async function dbCounts(): Promise<Record<string, number>> {
  const rows = await handle.db
    .selectFrom("models")
    .select((eb) => ["pipeline_tag", eb.fn.countAll<number>().as("n")])
    .groupBy("pipeline_tag")
    .execute();
  return Object.fromEntries(rows.flatMap((r) => (r.pipeline_tag === null ? [] : [[r.pipeline_tag, Number(r.n)] as const])));
}

describe("/tasks", () => {
  it("groups every task by modality, in MODALITIES order, with labels, colours and catalogue counts", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks`);
    const sections = await page.$$eval("section[data-modality]", (els) =>
      els.map((el) => ({ modality: el.getAttribute("data-modality"), label: el.querySelector("h2")?.textContent })),
    );
    const expectedOrder = MODALITIES.filter((m) => Object.values(PIPELINE_DATA).some((d) => d.modality === m));
    expect(sections.map((s) => s.modality)).toEqual(expectedOrder);
    expect(sections.map((s) => s.label)).toEqual(expectedOrder.map((m) => MODALITY_LABELS[m]));

    const cards = await page.$$eval("li[data-task]", (els) =>
      els.map((el) => ({
        id: el.getAttribute("data-task") ?? "",
        modality: el.closest("section")?.getAttribute("data-modality"),
        color: el.getAttribute("data-color"),
        stripe: getComputedStyle(el.firstElementChild ?? el).backgroundColor,
        countText: el.querySelector("[data-count]")?.textContent ?? "",
        count: Number(el.querySelector("[data-count]")?.getAttribute("data-count")),
        href: el.querySelector("a[data-count]")?.getAttribute("href") ?? null,
      })),
    );
    expect(cards.map((c) => c.id).sort()).toEqual(Object.keys(PIPELINE_DATA).sort());
    const counts = await dbCounts();
    const stripeByColor = new Map<string, string>();
    for (const card of cards) {
      const pipeline = PIPELINE_DATA[card.id as keyof typeof PIPELINE_DATA];
      expect(card.modality, card.id).toBe(pipeline.modality);
      if (TASK_COLORS[card.id]) expect(card.color, card.id).toBe(TASK_COLORS[card.id]);
      // One colour, one stripe colour; different colours, different stripes.
      const seen = stripeByColor.get(card.color ?? "");
      if (seen) expect(card.stripe).toBe(seen);
      else stripeByColor.set(card.color ?? "", card.stripe);
      expect(card.count, card.id).toBe(counts[card.id] ?? 0);
      expect(card.countText).toContain(`${(counts[card.id] ?? 0).toLocaleString("en-US")} model`);
      // No link to an empty listing, nor to a task the models filter does not offer.
      if (("hideInModels" in pipeline && pipeline.hideInModels) || card.count === 0) expect(card.href, card.id).toBeNull();
      else expect(card.href, card.id).toBe(`/models?pipeline_tag=${card.id}`);
    }
    expect(new Set(stripeByColor.values()).size).toBe(stripeByColor.size);
    expect(Object.values(counts).some((n) => n > 0)).toBe(true);
    await context.close();
  });

  it("marks tasks without a guide and aliases, linking to the canonical task", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks`);
    expect(await page.locator('li[data-task="graph-ml"] [data-badge="placeholder"]').textContent()).toBe("No guide yet");
    expect(await page.locator('li[data-task="text-generation"] [data-badge]').count()).toBe(0);
    const alias = page.locator('li[data-task="translation"] [data-badge="alias"] a');
    expect(await alias.getAttribute("href")).toBe("/tasks/text-generation");
    const subtasks = await page.locator('li[data-task="text-classification"] ul li').allTextContents();
    expect(subtasks.slice(0, 4)).toEqual(PIPELINE_DATA["text-classification"].subtasks.slice(0, 4).map((s) => s.name));
    // A task the Hub keeps out of its models filter, which no catalogue model carries, says so in words.
    await page.goto(`${server.url}/tasks/multiple-choice`);
    expect(await page.locator("main").innerText()).toContain("No model in this catalogue carries this task (not offered as a models filter).");
    await context.close();
  });

  it("narrows the cards as you type, and works as a GET form without JavaScript", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks`);
    await page.waitForLoadState("networkidle");
    await page.locator("#task-filter").pressSequentially("speech");
    await expect.poll(() => page.locator("li[data-task]").count()).toBeLessThan(10);
    const ids = await page.$$eval("li[data-task]", (els) => els.map((el) => el.getAttribute("data-task")));
    expect(ids).toContain("text-to-speech");
    expect(ids).toContain("automatic-speech-recognition");
    expect(ids).not.toContain("image-classification");
    expect(await page.locator("section[data-modality=cv]").count()).toBe(0);
    await page.locator("#task-filter").fill("");
    await expect.poll(() => page.locator("li[data-task]").count()).toBe(Object.keys(PIPELINE_DATA).length);
    await context.close();

    const noJs = await newPage({ javaScriptEnabled: false });
    await noJs.page.goto(`${server.url}/tasks`);
    await noJs.page.locator("#task-filter").fill("depth");
    await noJs.page.locator("form[role=search] button[type=submit]").click();
    await noJs.page.waitForURL(/\/tasks\?q=depth$/);
    expect(await noJs.page.$$eval("li[data-task]", (els) => els.map((el) => el.getAttribute("data-task")))).toEqual(["depth-estimation"]);
    await noJs.context.close();
  });

  it("navigates into a task", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks`);
    await page.locator('li[data-task="image-classification"] h3 a').click();
    await page.waitForURL(`${server.url}/tasks/image-classification`);
    expect(await page.locator("h1").textContent()).toBe("Image Classification");
    expect(await page.locator("header[data-color]").getAttribute("data-color")).toBe(TASK_COLORS["image-classification"]);
    expect(await page.locator("header[data-color]").textContent()).toContain(TASKS_DATA["image-classification"]?.summary);
    await context.close();
  });
});

describe("/tasks/<id>", () => {
  it("scrolls to a heading through its anchor link and updates the URL", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/text-generation`);
    await page.waitForLoadState("networkidle");
    const anchors = page.locator(".markdown .heading-anchor");
    expect(await anchors.count()).toBeGreaterThan(3);
    const anchor = anchors.nth(3);
    const href = (await anchor.getAttribute("href")) ?? "";
    expect(href).toMatch(/^#guide-/);
    await anchor.hover();
    await anchor.click();
    await page.waitForURL(`${server.url}/tasks/text-generation${href}`);
    const top = await page.locator(href).evaluate((el) => el.getBoundingClientRect().top);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(150);

    // The table of contents uses the same ids.
    const tocLinks = page.locator("nav.toc a");
    const tocLink = tocLinks.nth(Math.floor((await tocLinks.count()) / 2));
    const tocHref = (await tocLink.getAttribute("href")) ?? "";
    await page.evaluate(() => window.scrollTo(0, 0));
    await tocLink.click();
    await page.waitForURL(`${server.url}/tasks/text-generation${tocHref}`);
    const tocTop = await page.locator(tocHref).evaluate((el) => el.getBoundingClientRect().top);
    expect(tocTop).toBeLessThan(150);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);

    // Every heading on the page has an id and a permalink to it.
    const headings = await page.$$eval("main h2, main h3, main h4", (els) =>
      els.filter((h) => h.closest(".heading-wrapper")).map((h) => ({ id: h.id, link: h.parentElement?.querySelector(".heading-anchor")?.getAttribute("href") })),
    );
    expect(headings.length).toBeGreaterThan(5);
    for (const h of headings) expect(h.link).toBe(`#${h.id}`);
    await context.close();
  });

  it("links “Propose updates” to about.md and data.ts through the URL template", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/token-classification`);
    expect(await page.locator("a[data-propose='about.md']").getAttribute("href")).toBe(
      "https://git.example.org/fork/catalogue/-/blob/main/tasks/token-classification/about.md",
    );
    expect(await page.locator("a[data-propose='data.ts']").getAttribute("href")).toBe(
      "https://git.example.org/fork/catalogue/-/blob/main/tasks/token-classification/data.ts",
    );
    await context.close();
  });

  it("renders text and text-with-tokens demos with highlighted token spans", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/token-classification`);
    const demo = TASKS_DATA["token-classification"]?.demo;
    const input = demo?.inputs[0];
    const output = demo?.outputs[0];
    if (input?.type !== "text" || output?.type !== "text-with-tokens") throw new Error("unexpected demo in the package");
    expect(await page.locator("[data-demo-side=inputs] [data-demo-entry=text]").textContent()).toContain(input.content);
    const marks = await page.$$eval("[data-demo-entry='text-with-tokens'] mark", (els) =>
      els.map((el) => ({ type: el.getAttribute("data-token-type"), text: el.firstChild?.textContent, bg: getComputedStyle(el).backgroundColor })),
    );
    expect(marks.map((m) => ({ type: m.type, text: m.text }))).toEqual(
      output.tokens.map((t) => ({ type: t.type, text: output.text.slice(t.start, t.end) })),
    );
    expect(marks[0]?.bg).not.toBe(marks[1]?.bg);
    expect(marks[0]?.bg).not.toBe("rgba(0, 0, 0, 0)");
    // Plain text around the spans is kept, in order.
    expect((await page.locator("[data-demo-entry='text-with-tokens'] [data-tokens]").textContent())?.replace(/PERSON|GPE/g, "")).toBe(output.text);
    await context.close();
  });

  it("renders image and chart demos, images from the asset host", async () => {
    assets.requests.length = 0;
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/image-classification`);
    const input = TASKS_DATA["image-classification"]?.demo.inputs[0];
    const chart = TASKS_DATA["image-classification"]?.demo.outputs[0];
    if (input?.type !== "img" || chart?.type !== "chart") throw new Error("unexpected demo in the package");
    const img = page.locator("[data-demo-entry=img] img");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(64);
    expect(await img.getAttribute("src")).toBe(`${assets.base}/image-classification/${input.filename}`);
    expect(assets.requests).toContain(`/tasks-assets/image-classification/${input.filename}`);
    const bars = await page.$$eval("[data-demo-chart] li", (els) =>
      els.map((el) => ({
        text: el.textContent,
        width: el.querySelector<HTMLElement>("[data-bar]")?.getBoundingClientRect().width ?? 0,
      })),
    );
    expect(bars).toHaveLength(chart.data.length);
    chart.data.forEach((d, i) => {
      expect(bars[i]?.text).toContain(d.label);
      expect(bars[i]?.text).toContain(d.score.toFixed(3));
    });
    // Horizontal bars, proportional to the scores.
    const [first, second] = [bars[0]?.width ?? 0, bars[1]?.width ?? 0];
    expect(first).toBeGreaterThan(second);
    expect(second / first).toBeCloseTo((chart.data[1]?.score ?? 0) / (chart.data[0]?.score ?? 1), 1);
    await context.close();
  });

  it("renders audio demos from the asset host", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/audio-classification`);
    const input = TASKS_DATA["audio-classification"]?.demo.inputs[0];
    if (input?.type !== "audio") throw new Error("unexpected demo in the package");
    const audio = page.locator("[data-demo-entry=audio] audio");
    expect(await audio.getAttribute("preload")).toBe("none");
    expect(await audio.locator("source").getAttribute("src")).toBe(`${assets.base}/audio-classification/${input.filename}`);
    await page.waitForLoadState("networkidle");
    await audio.evaluate((el: HTMLAudioElement) => el.load());
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration)).toBeGreaterThan(0.2);
    expect(await page.locator("[data-demo-entry=chart]").count()).toBe(1);
    await context.close();
  });

  it("renders tabular demos as tables", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/tabular-classification`);
    const input = TASKS_DATA["tabular-classification"]?.demo.inputs[0];
    if (input?.type !== "tabular") throw new Error("unexpected demo in the package");
    const table = page.locator("[data-demo-side=inputs] [data-demo-entry=tabular] table");
    expect(await table.locator("thead th").allTextContents()).toEqual(input.table[0]);
    const rows = await table.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    expect(rows).toEqual(input.table.slice(1));
    await context.close();
  });

  it("links example models into the catalogue when present and marks the others external", async () => {
    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/text-generation`);
    const data = TASKS_DATA["text-generation"];
    if (!data) throw new Error("text-generation has no data");
    const present = new Set(
      (await handle.db.selectFrom("models").select("id").where("id", "in", [...data.models.map((m) => m.id), ...data.widgetModels]).execute()).map((r) => r.id),
    );
    const items = await page.$$eval("[data-example-list=models] li", (els) =>
      els.map((el) => ({ id: el.getAttribute("data-example-id"), external: el.getAttribute("data-external"), href: el.querySelector("a")?.getAttribute("href"), text: el.textContent })),
    );
    expect(items.map((i) => i.id)).toEqual(data.models.map((m) => m.id));
    for (const item of items) {
      if (present.has(item.id ?? "")) {
        expect(item).toMatchObject({ external: "false", href: `/${item.id}` });
      } else {
        expect(item).toMatchObject({ external: "true", href: `https://huggingface.co/${item.id}` });
        expect(item.text).toContain("external");
      }
    }
    for (const id of data.widgetModels) {
      const href = await page.locator(`a[data-try-it="${id}"]`).getAttribute("href");
      expect(href).toBe(present.has(id) ? `/playground/${id}` : `https://huggingface.co/${id}`);
    }
    expect(await page.locator("[data-example-list=datasets] li").count()).toBe(data.datasets.length);
    expect(await page.locator("[data-example-list=spaces] li").count()).toBe(data.spaces.length);
    expect(await page.locator("[data-example-list=metrics] dt").allTextContents()).toEqual(data.metrics.map((m) => m.id));
    expect(await page.locator("[data-example-list=libraries] li").allTextContents()).toEqual(["Transformers", "Transformers.js"]);
    const related = await page.$$eval("[data-example-list=related] a", (els) => els.map((a) => a.getAttribute("href")));
    expect(related.length).toBeGreaterThan(0);
    for (const href of related) expect(PIPELINE_DATA[(href ?? "").replace("/tasks/", "") as keyof typeof PIPELINE_DATA].modality).toBe("nlp");
    await context.close();
  });

  it("loads nothing from the video host until the video is clicked", async () => {
    const { page, context, blocked } = await newPage();
    await page.goto(`${server.url}/tasks/text-generation`);
    await page.waitForLoadState("networkidle");
    expect(blocked.filter((u) => /youtube|ytimg|googlevideo/.test(u))).toEqual([]);
    expect(await page.locator("iframe").count()).toBe(0);
    const link = page.locator("a[data-video-link]");
    expect(await link.getAttribute("href")).toBe(`https://www.youtube.com/watch?v=${TASKS_DATA["text-generation"]?.youtubeId}`);
    await link.click();
    const iframe = page.locator("iframe");
    expect(await iframe.getAttribute("src")).toBe(`https://www.youtube-nocookie.com/embed/${TASKS_DATA["text-generation"]?.youtubeId}?autoplay=1`);
    await context.close();
  });

  it("answers unknown task ids with 404 and suggestions", async () => {
    const { page, context } = await newPage();
    const res = await page.goto(`${server.url}/tasks/image-clasification`);
    expect(res?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Task not found");
    expect(await page.locator("[data-suggestions] a").first().getAttribute("href")).toBe("/tasks/image-classification");
    await context.close();
  });

  it("falls back to labelled placeholders when the asset host is offline", async () => {
    await assets.close();
    const input = TASKS_DATA["image-classification"]?.demo.inputs[0];
    if (input?.type !== "img") throw new Error("unexpected demo in the package");

    const { page, context } = await newPage();
    await page.goto(`${server.url}/tasks/image-classification`);
    const fallback = page.locator("[data-demo-entry=img] [data-media-fallback=image]");
    await fallback.scrollIntoViewIfNeeded();
    await expect.poll(() => fallback.count()).toBe(1);
    expect(await fallback.textContent()).toContain(input.filename);
    expect(await fallback.isVisible()).toBe(true);
    expect(await page.locator("[data-demo-entry=img] img").count()).toBe(0);

    const audioInput = TASKS_DATA["audio-classification"]?.demo.inputs[0];
    if (audioInput?.type !== "audio") throw new Error("unexpected demo in the package");
    await page.goto(`${server.url}/tasks/audio-classification`);
    await page.waitForLoadState("networkidle");
    await page.locator("[data-demo-entry=audio] audio").evaluate((el: HTMLAudioElement) => el.load());
    const audioFallback = page.locator("[data-demo-entry=audio] [data-media-fallback=audio]");
    await expect.poll(() => audioFallback.count()).toBe(1);
    expect(await audioFallback.textContent()).toContain(audioInput.filename);
    await context.close();

    // Without JavaScript the broken image is covered by a label drawn in CSS.
    const noJs = await newPage({ javaScriptEnabled: false });
    await noJs.page.goto(`${server.url}/tasks/image-classification`);
    const img = noJs.page.locator("[data-demo-entry=img] img");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth === 0)).toBe(true);
    const after = await img.evaluate((el) => {
      const style = getComputedStyle(el, "::after");
      return { content: style.content, position: style.position };
    });
    expect(after.position).toBe("absolute");
    expect(after.content).toContain(input.filename);
    await img.screenshot({ path: "test-results/screenshots/offline-image-nojs.png" });
    await noJs.context.close();
  });

  it("links the breadcrumb's modality to that modality's section of /tasks", async () => {
    const { page, context } = await newPage();
    for (const [id, modality] of [["graph-ml", "other"], ["fill-mask", "nlp"]] as const) {
      await page.goto(`${server.url}/tasks/${id}`);
      const crumb = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").nth(1);
      expect(await crumb.getAttribute("href")).toBe(`/tasks#modality-${modality}`);
      await crumb.click();
      await page.waitForURL(`${server.url}/tasks#modality-${modality}`);
      // The section holds the task, and only tasks of that modality.
      const section = page.locator(`section[data-modality=${modality}]`);
      expect(await section.locator("h2").getAttribute("id")).toBe(`modality-${modality}`);
      expect(await section.locator(`a[href="/tasks/${id}"]`).count()).toBe(1);
    }
    await context.close();
  });

  it("passes axe on a phone where a demo's table scrolls sideways or the package lists a blank dataset", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await allowOnlyLoopback(context);
    const page = await context.newPage();
    // Wide demo tables scroll at 390 px, so axe asks that a keyboard can reach them.
    for (const path of ["/tasks/tabular-classification", "/tasks/feature-extraction", "/tasks/zero-shot-image-classification"]) {
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState("networkidle");
      expect(describeViolations(await runAxe(page)), path).toBe("");
    }
    // zero-shot-image-classification's only dataset has an empty id: no nameless link to the Hub's /datasets/.
    expect(await page.locator("[data-example-list=datasets] li").count()).toBe(0);
    expect(await page.locator('a[href$="/datasets/"]').count()).toBe(0);
    expect(await page.locator("[data-hub-datasets]").count()).toBe(1);
    await context.close();
  });

  it("fits narrow and wide screens in both themes (screenshots in test-results/screenshots)", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [390, 1280]) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        await allowOnlyLoopback(context);
        const page = await context.newPage();
        for (const path of ["/tasks", "/tasks/text-generation", "/tasks/image-classification"]) {
          await page.goto(`${server.url}${path}`);
          await page.waitForLoadState("networkidle");
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${path} at ${width}px (${colorScheme})`).toBeLessThanOrEqual(0);
          if (width === 1280) {
            const name = path.slice(1).replaceAll("/", "_");
            await page.screenshot({ path: `test-results/screenshots/${name}-${colorScheme}.png`, fullPage: true });
          }
        }
        await context.close();
      }
    }
  });
});

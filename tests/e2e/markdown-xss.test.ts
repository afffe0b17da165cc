/**
 * Renders the whole hostile corpus (tests/support/xss-corpus.ts) with the real renderer, serves it
 * from a local HTTP server with the real prose CSS and KaTeX CSS, and drives Chromium over it:
 * waits for failing images, focuses, hovers and clicks everything, tabs through the page and
 * toggles <details>. Nothing may run (window.__pwned stays undefined, no dialog), nothing may
 * leave for leak.invalid, the page must not navigate, and nothing may cover the page outside a card.
 *
 * A positive control serves a few payloads unsanitised through the same harness and expects
 * __pwned to be set, so a harness that cannot detect execution fails loudly.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { xssCorpus } from "#tests/support/xss-corpus.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";
import { settle, setupBrowser } from "#tests/e2e/support/journey.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const markdownCss = readFileSync(path.join(ROOT, "app/markdown/markdown.css"), "utf8");
const katexCss = readFileSync(path.join(ROOT, "node_modules/katex/dist/katex.min.css"), "utf8");

const resolveRelativeUrl = (p: string, kind: "link" | "image") =>
  `/models/acme/model/${kind === "image" ? "resolve" : "blob"}/main/${p.replace(/^\.?\//, "")}`;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function pageHtml(cards: Array<{ name: string; html: string }>): string {
  const body = cards
    .map(
      (card) =>
        `<section class="case" data-case="${escapeAttribute(card.name)}"><h2 class="case-title">${escapeAttribute(card.name)}</h2><article class="markdown">${card.html}</article></section>`,
    )
    .join("\n");
  // The harness page itself has no script: everything that runs here came from a card.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>XSS harness</title>
<link rel="stylesheet" href="/katex.css"><style>${markdownCss}
body{margin:0;font-family:sans-serif} #harness-top{height:40px;margin:0;background:#eee}
.case{margin:16px;padding:8px;border:1px solid #ccc} .case-title{font-size:12px;margin:0 0 4px}</style></head>
<body><p id="harness-top">harness</p><main>${body}</main></body></html>`;
}

type Served = { url: string; close(): Promise<void> };

/** Serves the harness page built from `cards` for the enclosing describe; `url` is read inside its tests. */
function setupHarness(cards: () => Promise<Array<{ name: string; html: string }>>): { readonly url: string } {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await serve(pageHtml(await cards()));
  });
  afterAll(async () => {
    await served?.close();
  });
  return {
    get url() {
      if (!served) throw new Error("the harness page is served from the describe's beforeAll");
      return served.url;
    },
  };
}

async function serve(html: string): Promise<Served> {
  const server: Server = createServer((req, res) => {
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html);
    } else if (req.url === "/katex.css") {
      res.writeHead(200, { "content-type": "text/css" });
      res.end(katexCss);
    } else {
      // Images and links in cards resolve here and fail, which fires any surviving onerror.
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Outcome = {
  pwned: string;
  dialogs: string[];
  blocked: string[];
  finalUrl: string;
  pageErrors: string[];
};

/** Loads the page and pokes at everything a visitor could touch. */
async function exercise(browser: Browser, url: string): Promise<Outcome & { page: Page; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const blocked = await allowOnlyLoopback(context);
  // Keep ordinary link clicks from navigating away (the page would be gone before we look);
  // links with any other scheme are left alone so a surviving javascript: URL would still run.
  await context.addInitScript(() => {
    document.addEventListener(
      "click",
      (event) => {
        const target = event.target instanceof Element ? event.target.closest("a[href], area[href]") : null;
        if (!target) return;
        const href = target.getAttribute("href") ?? "";
        let protocol = "";
        try {
          protocol = new URL(href, document.baseURI).protocol;
        } catch {
          protocol = "";
        }
        if (protocol === "http:" || protocol === "https:" || protocol === "mailto:") event.preventDefault();
      },
      true,
    );
  });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("popup", (popup) => void popup.close());

  // "load" waits for every image, so failing ones have fired their onerror.
  await page.goto(url, { waitUntil: "load" });
  await settle(page);

  // Synthetic focus/hover/click on every element inside the cards (inline handlers fire for these).
  await page.evaluate(() => {
    const elements = Array.from(document.querySelectorAll(".markdown *"));
    for (const element of elements) {
      if (!(element instanceof HTMLElement || element instanceof SVGElement)) continue;
      element.focus?.();
      for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove", "mousedown", "mouseup"]) {
        element.dispatchEvent(new MouseEvent(type, { bubbles: true }));
      }
      element.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
      element.blur?.();
    }
    for (const details of Array.from(document.querySelectorAll(".markdown details"))) {
      if (details instanceof HTMLDetailsElement) details.open = !details.open;
    }
    for (const element of elements) {
      if (element instanceof HTMLElement) element.click();
    }
  });
  await settle(page);

  // Real (trusted) input: hover and click links, summaries and anything else clickable.
  const clickable = page.locator(".markdown :is(a, summary, button, input, area, img, video, audio, label, [tabindex])");
  const count = await clickable.count();
  for (let i = 0; i < count; i++) {
    const element = clickable.nth(i);
    // A trusted click moves the mouse there first, so it hovers as well.
    await element.click({ timeout: 300, force: true, noWaitAfter: true }).catch(() => undefined);
  }
  // Sweep the mouse over the page, screen by screen.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 800) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    for (let x = 20; x < 1200; x += 120) {
      for (let dy = 20; dy < 900; dy += 120) await page.mouse.move(x, dy);
    }
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 0; i < 60; i++) await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await settle(page);

  const pwned = await page.evaluate(() => {
    const value: unknown = Reflect.get(window, "__pwned");
    return value === undefined ? "undefined" : typeof value === "string" ? value : (JSON.stringify(value) ?? typeof value);
  });
  return {
    pwned,
    dialogs,
    blocked,
    pageErrors,
    finalUrl: page.url(),
    page,
    close: () => context.close(),
  };
}

const browser = setupBrowser();

describe("markdown XSS corpus in Chromium", () => {
  const served = setupHarness(async () => {
    const cards: Array<{ name: string; html: string }> = [];
    for (const entry of xssCorpus) {
      const result = await renderMarkdown(entry.markdown, { resolveRelativeUrl, cacheKey: "acme/model@main" });
      cards.push({ name: entry.name, html: result.html });
    }
    const all = await renderMarkdown(xssCorpus.map((entry) => entry.markdown).join("\n\n"), {
      resolveRelativeUrl,
      cacheKey: "acme/model@main",
    });
    cards.push({ name: "whole corpus as one card", html: all.html });
    return cards;
  });

  it("runs nothing, opens no dialog, leaks nothing and stays put", { timeout: 300_000 }, async () => {
    const outcome = await exercise(browser, served.url);
    try {
      expect(outcome.pwned).toBe("undefined");
      expect(outcome.dialogs).toEqual([]);
      expect(outcome.blocked.filter((u) => u.includes("leak.invalid"))).toEqual([]);
      expect(outcome.finalUrl).toBe(served.url);

      const page = outcome.page;
      const report = await page.evaluate(() => {
        const cards = Array.from(document.querySelectorAll(".markdown"));
        const inCards = cards.flatMap((card) => Array.from(card.querySelectorAll("*")));
        const dangerous = Array.from(
          document.querySelectorAll("script, iframe, frame, object, embed, form, meta[http-equiv], base, link:not([href='/katex.css']), textarea, select, button, style:not(head style)"),
        ).map((e) => e.outerHTML.slice(0, 120));
        const positioned = inCards
          .filter((e) => !e.closest(".katex") && !e.classList.contains("sr-only"))
          .filter((e) => ["fixed", "sticky", "absolute"].includes(getComputedStyle(e).position))
          .map((e) => e.outerHTML.slice(0, 120));
        const handlers = inCards.flatMap((e) =>
          Array.from(e.attributes)
            .filter((a) => /^on/i.test(a.name))
            .map((a) => `${e.tagName} ${a.name}`),
        );
        const unprefixedIds = inCards
          .flatMap((e) => [e.getAttribute("id"), e.getAttribute("name")])
          .filter((v): v is string => v !== null && !v.startsWith("md-"));
        const inputs = inCards
          .filter((e): e is HTMLInputElement => e instanceof HTMLInputElement)
          .filter((e) => e.type !== "checkbox" || !e.disabled)
          .map((e) => e.outerHTML);
        // Nothing from a card may sit over the harness header at the top-left of the page.
        window.scrollTo(0, 0);
        const topLeft = document.elementFromPoint(5, 5);
        return {
          cards: cards.length,
          dangerous,
          positioned,
          handlers,
          unprefixedIds,
          inputs,
          topLeftIsHarness: topLeft?.id === "harness-top",
          bodyStillVisible: getComputedStyle(document.body).display !== "none",
        };
      });
      expect(report.cards).toBe(xssCorpus.length + 1);
      expect(report.dangerous).toEqual([]);
      expect(report.positioned).toEqual([]);
      expect(report.handlers).toEqual([]);
      expect(report.unprefixedIds).toEqual([]);
      expect(report.inputs).toEqual([]);
      expect(report.topLeftIsHarness).toBe(true);
      expect(report.bodyStillVisible).toBe(true);
    } finally {
      await outcome.close();
    }
  });
});

describe("positive control: the harness detects execution", () => {
  const served = setupHarness(async () => {
    const unsanitised = xssCorpus
      .filter((entry) => entry.executesUnsanitised)
      .map((entry) => ({ name: entry.name, html: entry.markdown }));
    expect(unsanitised.length).toBeGreaterThanOrEqual(3);
    return unsanitised;
  });

  it("sees window.__pwned when the same payloads are not sanitised", { timeout: 120_000 }, async () => {
    const outcome = await exercise(browser, served.url);
    try {
      expect(outcome.pwned).toBe("1");
    } finally {
      await outcome.close();
    }
  });
});

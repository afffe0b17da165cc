/**
 * The hostile corpus (tests/support/xss-corpus.ts) as model cards on real model pages: each vector
 * family is one card (plus one card with the whole corpus), imported with `modelyard import` and
 * served by the real server with the page's own scripts running. Chromium focuses, hovers and
 * clicks everything in the card and tabs through the page: window.__pwned stays unset, no dialog
 * opens, nothing is requested from leak.invalid and the page stays put.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { xssCorpus } from "#tests/support/xss-corpus.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";
import { settle, setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";

const ids: string[] = [];
const server = setupServer({}, async (s) => {
  // Cards go in the server's own temporary folder, removed when it stops.
  const dir = path.join(s.dir, "cards");
  fs.mkdirSync(dir);
  const families = [...new Set(xssCorpus.map((c) => c.family))];
  const write = (name: string, body: string) => {
    fs.writeFileSync(path.join(dir, `xss-test__${name}.md`), `---\nlicense: mit\npipeline_tag: text-generation\n---\n# ${name}\n\n${body}\n`);
    ids.push(`xss-test/${name}`);
  };
  for (const family of families) {
    write(`family-${family}`, xssCorpus.filter((c) => c.family === family).map((c) => `## ${c.name}\n\n${c.markdown}`).join("\n\n"));
  }
  write("whole-corpus", xssCorpus.map((c) => c.markdown).join("\n\n"));
  await importIntoServer(s, dir);
});
const browser = setupBrowser();

describe("hostile cards on the model page", () => {
  it("imports one card per vector family plus the whole corpus", () => {
    expect(ids.length).toBe(new Set(xssCorpus.map((c) => c.family)).size + 1);
  });

  it("runs nothing, opens no dialog, leaks nothing and stays put", { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    for (const id of ids) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const blocked = await allowOnlyLoopback(context);
      // Ordinary http(s) link clicks would leave the page; anything else (javascript:) is left to run.
      await context.addInitScript(() => {
        document.addEventListener(
          "click",
          (event) => {
            const a = event.target instanceof Element ? event.target.closest("a[href], area[href]") : null;
            if (!a) return;
            let protocol = "";
            try {
              protocol = new URL(a.getAttribute("href") ?? "", document.baseURI).protocol;
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
      page.on("dialog", (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on("popup", (p) => void p.close());
      const url = `${server.url}/${id}`;
      const res = await page.goto(url, { waitUntil: "load" });
      if (res?.status() !== 200) failures.push(`${id}: HTTP ${res?.status()}`);
      await settle(page);
      await page.evaluate(() => {
        const elements = Array.from(document.querySelectorAll("#model-card *"));
        for (const el of elements) {
          if (!(el instanceof HTMLElement || el instanceof SVGElement)) continue;
          el.focus?.();
          for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "mousemove", "mousedown", "mouseup"]) el.dispatchEvent(new MouseEvent(type, { bubbles: true }));
          el.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
        }
        for (const d of Array.from(document.querySelectorAll("#model-card details"))) if (d instanceof HTMLDetailsElement) d.open = !d.open;
        for (const el of elements) if (el instanceof HTMLElement) el.click();
      });
      const clickable = page.locator("#model-card :is(a, summary, button, input, area, img, video, audio, label, [tabindex])");
      const n = await clickable.count();
      for (let i = 0; i < n; i++) await clickable.nth(i).click({ timeout: 200, force: true, noWaitAfter: true }).catch(() => undefined);
      for (let y = 0; y < 3000; y += 150) await page.mouse.move(100 + (y % 900), 50 + (y % 800));
      for (let i = 0; i < 40; i++) await page.keyboard.press("Tab");
      await settle(page);
      const report = await page.evaluate(() => {
        const inCard = Array.from(document.querySelectorAll("#model-card *"));
        return {
          pwned: String(Reflect.get(window, "__pwned") ?? "unset"),
          handlers: inCard.flatMap((e) => Array.from(e.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
          dangerous: Array.from(document.querySelectorAll("#model-card :is(script, iframe, frame, object, embed, form, base, meta, link, style, textarea, select, button)")).map((e) => e.outerHTML.slice(0, 100)),
          badUrls: inCard
            .flatMap((e) => ["href", "src", "action", "formaction", "xlink:href"].map((a) => e.getAttribute(a) ?? ""))
            .filter((v) => /^\s*(javascript|data|vbscript):/i.test(v)),
          headerVisible: document.querySelector("[data-model-page] > header")?.getBoundingClientRect().height ?? 0,
        };
      });
      if (report.pwned !== "unset") failures.push(`${id}: __pwned = ${report.pwned}`);
      if (dialogs.length) failures.push(`${id}: dialogs ${dialogs.join(", ")}`);
      if (report.handlers.length) failures.push(`${id}: handlers ${report.handlers.join(", ")}`);
      if (report.dangerous.length) failures.push(`${id}: elements ${report.dangerous.join(", ")}`);
      if (report.badUrls.length) failures.push(`${id}: URLs ${report.badUrls.join(", ")}`);
      if (report.headerVisible === 0) failures.push(`${id}: page header hidden`);
      const leaks = blocked.filter((u) => u.includes("leak.invalid"));
      if (leaks.length) failures.push(`${id}: requests ${leaks.join(", ")}`);
      if (page.url() !== url) failures.push(`${id}: navigated to ${page.url()}`);
      await context.close();
    }
    expect(failures).toEqual([]);
  });
});

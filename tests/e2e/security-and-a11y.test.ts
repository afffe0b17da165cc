/**
 * Every page type, in light and dark, in Chromium against the real server with its real
 * Content-Security-Policy: a page fails on any `securitypolicyviolation` event, any console
 * error or uncaught exception, and any axe violation of WCAG 2.0/2.1 A and AA or axe's best
 * practices (issue 12).
 */
import type { BrowserContext } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { allowOnlyLoopback, waitForHydration } from "#tests/e2e/support/browser.ts";
import { describeViolations, readCspViolations, recordCspViolations, runAxe } from "#tests/e2e/support/page-audit.ts";
import { THEME_COOKIE } from "#app/utils/theme.ts";

/** A conversational model of the bundled catalogue that has every tab, the chat template included. */
const CHAT_MODEL = "Qwen/Qwen2-72B-Instruct";

const PAGES = [
  "/",
  "/models",
  "/models?search=llama",
  "/models?author=Qwen",
  "/Qwen",
  `/${CHAT_MODEL}`,
  `/${CHAT_MODEL}?tab=files`,
  `/${CHAT_MODEL}?tab=inference`,
  `/${CHAT_MODEL}?tab=chat-template`,
  "/tasks",
  "/tasks/object-detection",
  "/tasks/text-generation",
  "/chat-template",
  "/settings",
  "/playground",
  `/playground/${CHAT_MODEL}`,
  "/spaces",
  "SPACE",
] as const;

/**
 * The pages whose styles have rules of their own for a dark OS (the card's and code's colours, in
 * markdown.css), and one without. The utilities reach the system theme through the same variant
 * as the explicit one (app.css), and markdown.css's twins are compared rule by rule in
 * app/markdown/dark-scheme-parity.test.ts, so the system theme's audit need not repeat every page.
 */
const SYSTEM_THEME_PAGES = new Set<string>(["/", `/${CHAT_MODEL}`, `/${CHAT_MODEL}?tab=chat-template`, "/tasks/text-generation", "/chat-template"]);

/**
 * An explicit choice (the cookie puts a class on <html>) in light and dark on every page type,
 * and "system" on a dark OS, which reaches the same colours through prefers-color-scheme rules.
 */
const THEMES = [
  { name: "light", cookie: "light", os: "light", pages: PAGES },
  { name: "dark", cookie: "dark", os: "dark", pages: PAGES },
  { name: "system dark", cookie: null, os: "dark", pages: PAGES.filter((p) => SYSTEM_THEME_PAGES.has(p)) },
] as const;

/**
 * The test's own offline guard (allowOnlyLoopback) aborts requests to other hosts, such as a
 * card's remote image, and Chromium logs each as a failed load. Those are the test's doing.
 */
const BLOCKED_BY_TEST = /^Failed to load resource: net::ERR_BLOCKED_BY_CLIENT(\.Inspector)?$/;

let spacePath = "";
const server = setupServer({}, async (s) => {
  const spaces = await (await fetch(`${s.url}/spaces`)).text();
  spacePath = /href="(\/spaces\/[^"/]+\/[^"/]+)"/.exec(spaces)?.[1] ?? "";
});
// Contexts a test leaves open close with the browser.
const browser = setupBrowser();

describe("the harness itself", () => {
  it("sees a script the policy blocks", async () => {
    const context = await browser.newContext();
    await recordCspViolations(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/settings`);
    await page.evaluate(() => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true";
      document.body.append(script);
    });
    await expect.poll(() => readCspViolations(page)).toEqual([expect.objectContaining({ directive: "script-src-elem", blockedURI: "inline" })]);
    expect(await page.evaluate(() => "__injected" in window)).toBe(false);
    await context.close();
  });
});

describe("the audit within an element", () => {
  it("finds what is wrong inside the element and nothing outside it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/settings`);
    // Added before hydration, the elements would be a mismatch React removes.
    await waitForHydration(page, "main");
    await page.evaluate(() => {
      const faint = (id: string) => {
        const p = document.createElement("p");
        p.id = id;
        p.textContent = "Faint text";
        p.style.color = "#eeeeee";
        p.style.background = "#ffffff";
        return p;
      };
      const box = document.createElement("section");
      box.id = "audited";
      box.append(faint("inside"));
      document.querySelector("main")?.append(box, faint("outside"));
    });
    const contrast = (violations: Awaited<ReturnType<typeof runAxe>>) =>
      violations.filter((v) => v.id === "color-contrast").flatMap((v) => v.nodes.map((n) => n.target));
    expect(contrast(await runAxe(page, "#audited"))).toEqual(["#inside"]);
    expect(contrast(await runAxe(page)).sort()).toEqual(["#inside", "#outside"]);
    await context.close();
  });
});

describe.each(THEMES)("every page type in the $name theme", (theme) => {
  let context: BrowserContext;
  beforeAll(async () => {
    // With a cookie the emulated OS preference agrees with it, so nothing on the page can fall
    // back to the other scheme.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: theme.os });
    if (theme.cookie) await context.addCookies([{ name: THEME_COOKIE, value: theme.cookie, url: server.url }]);
    await allowOnlyLoopback(context);
    await recordCspViolations(context);
  });

  it.each(theme.pages)("%s: no CSP violation, console error or axe violation", async (entry) => {
    const path = entry === "SPACE" ? spacePath : entry;
    expect(path, "a Space page link on /spaces").not.toBe("");
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && !BLOCKED_BY_TEST.test(message.text())) consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(`uncaught: ${error.message}`));

    const response = await page.goto(server.url + path, { waitUntil: "load" });
    expect(response?.status(), path).toBe(200);
    // The nonced inline scripts ran: the client router exists only once the page has hydrated.
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    // The lazy chunks (the jinja engine, the chat demo's settings) have loaded too.
    await page.waitForLoadState("networkidle");
    const classes = (await page.evaluate(() => document.documentElement.className)).split(/\s+/);
    expect(classes.filter((c) => c === "light" || c === "dark"), "theme class on <html>").toEqual(theme.cookie ? [theme.cookie] : []);

    const violations = await runAxe(page);
    const csp = await readCspViolations(page);
    await page.close();

    // One report with all three kinds, so a failing page shows everything wrong with it at once.
    const problems = [
      ...csp.map((v) => `CSP: ${v.directive} blocked ${v.blockedURI || "inline"} at ${v.source} ${v.sample}`),
      ...consoleErrors.map((text) => `console: ${text}`),
      ...(violations.length > 0 ? [`axe:\n${describeViolations(violations)}`] : []),
    ];
    expect(problems.join("\n"), `${path} (${theme.name})`).toBe("");
  });
});

import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";

/** Debian's Chromium; playwright-core never downloads a browser of its own here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Flags for a quiet, offline, container-friendly headless Chromium. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches the system Chromium. Close it in afterAll: `await browser.close()`. */
export async function launchBrowser(options: { args?: string[] } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
}

/**
 * Lets a context reach only loopback addresses (the tests' own servers) and aborts every other
 * request, so a test can never touch the network. Returns the aborted URLs, in order (in
 * `blocked` when given), so tests can assert that nothing tried to leave.
 */
export async function allowOnlyLoopback(context: BrowserContext, blocked: string[] = []): Promise<string[]> {
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    let host = "";
    try {
      host = new URL(url).hostname;
    } catch {
      host = "";
    }
    if (host === "127.0.0.1" || host === "localhost" || host === "[::1]") {
      await route.continue();
    } else {
      blocked.push(url);
      await route.abort("blockedbyclient");
    }
  });
  return blocked;
}

/** A fresh context that reaches only this machine, with a page open in it. */
export async function openOfflinePage(browser: Browser, opts: Parameters<Browser["newContext"]>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(opts);
  await allowOnlyLoopback(context);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Waits until React has hydrated the element, so typed input reaches React's state. Filling a
 * controlled field before then races hydration: React can put its own value back between
 * Playwright's select-all and its insert, and the typed text lands in front of the old value.
 */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    return !!el && Object.keys(el).some((k) => k.startsWith("__reactFiber"));
  }, selector);
}

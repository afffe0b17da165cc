/**
 * The browser journeys' fixtures: the provider simulator, the server and its environment, the
 * browser, an offline page, the screenshot folder and a widget runner. Each `setup…` helper
 * registers the hooks that start and stop its piece, and returns a stand-in for it that tests use
 * as the thing itself (ADR 0043): call them at the top of a file (or a describe) in the order the
 * pieces depend on each other; Vitest runs the stopping hooks in the reverse order.
 */
import path from "node:path";
import { type Browser, type BrowserContext, errors, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { allowOnlyLoopback, launchBrowser, waitForHydration } from "#tests/e2e/support/browser.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";
import { startTaskAssetHost, type TaskAssetHost } from "#tests/e2e/support/task-assets.ts";
import { type ProviderSimulator, startProviderSimulator } from "#tests/simulators/provider-simulator.ts";

/** Where journeys save screenshots; Playwright makes the folder when it writes the first one. */
export const SCREENSHOTS = path.resolve(import.meta.dirname, "..", "..", "..", "test-results", "screenshots");

/** The path of a screenshot in the shared folder: `page.screenshot({ path: screenshot("x.png") })`. */
export const screenshot = (name: string): string => path.join(SCREENSHOTS, name);

/**
 * A stand-in for an object a hook makes (and may replace before each test): every property is
 * read from the current one, so `server.url` or `page.goto(…)` work in a test, while using it
 * before its hook has run fails with a message that says so rather than with "undefined".
 */
function lateBound<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_stub, prop) {
      const target = current();
      if (!target) throw new Error(`${what} is not started yet: use it inside a test or a hook registered after it`);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Anything else a file starts once and stops at the end (an OpenID provider, a second server). */
export function setupService<T extends object>(what: string, start: () => Promise<T>, stop: (service: T) => Promise<void>): T {
  let service: T | undefined;
  beforeAll(async () => {
    service = await start();
  });
  afterAll(async () => {
    if (service) await stop(service);
  });
  return lateBound(what, () => service);
}

/**
 * The provider simulator for this file (started with `options`), reset before each test unless
 * `keepState`; `onReset` runs after each reset (to add the Hub models a file's tests need).
 */
export function setupSimulator(opts: { onReset?: (sim: ProviderSimulator) => void; options?: Parameters<typeof startProviderSimulator>[0]; keepState?: boolean } = {}): ProviderSimulator {
  let sim: ProviderSimulator | undefined;
  beforeAll(async () => {
    sim = await startProviderSimulator(opts.options);
    opts.onReset?.(sim);
  });
  beforeEach(() => {
    // A file whose tests build on each other's requests (counting Hub calls across visits) keeps them.
    if (opts.keepState) return;
    sim!.reset();
    opts.onReset?.(sim!);
  });
  afterAll(async () => {
    await sim?.close();
  });
  return lateBound("The provider simulator", () => sim);
}

/** An `onReset` that puts models in the simulator's Hub, each mapped to hf-inference for its task. */
export function hfInferenceHubModels(models: ReadonlyArray<readonly [id: string, task: string]>): (sim: ProviderSimulator) => void {
  return (sim) => {
    for (const [id, task] of models) sim.addHubModel({ id, pipeline_tag: task, tags: [], inferenceProviderMapping: { "hf-inference": { status: "live", providerId: id, task } } });
  };
}

type ServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

/**
 * The real server for this file. Options may be a function, read when the server starts, so they
 * can name things started before it (`() => ({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url } })`);
 * `setup` runs once it is up (an import, a seeded account).
 */
export function setupServer(options: ServerOptions | (() => ServerOptions) = {}, setup?: (server: TestServer) => Promise<void>): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(typeof options === "function" ? options() : options);
    await setup?.(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return lateBound("The test server", () => server);
}

/** A handle on the server's own database, for tests that read what a page should show. */
export const setupDatabase = (server: TestServer): DatabaseHandle => setupService("The database", async () => openDatabase(server.databaseUrl), (db) => db.close());

/** The environment of a server whose inference goes to the simulator, on the server's own key. */
export function simulatedInference(sim: ProviderSimulator, serverKey: string, env: Record<string, string> = {}): Record<string, string> {
  return { MODELYARD_UPSTREAM_OVERRIDE: sim.url, MODELYARD_ACCESS: "open", HF_TOKEN: serverKey, MODELYARD_INFERENCE_RATE_LIMIT: "1000", ...env };
}

/** The stand-in for the task guides' asset host, for this file (its `base` is MODELYARD_TASK_ASSET_BASE). */
export const setupTaskAssetHost = (): TaskAssetHost => setupService("The task asset host", startTaskAssetHost, (host) => host.close());

/** Debian's Chromium for this file (extra flags, such as a fake microphone, in `args`). */
export function setupBrowser(opts: { args?: string[] } = {}): Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(opts);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return lateBound("The browser", () => browser);
}

type ContextOptions = NonNullable<Parameters<Browser["newContext"]>[0]>;

export interface OfflinePage {
  page: Page;
  context: BrowserContext;
  /** The URLs this test's page tried to reach beyond this machine, in order (emptied per test). */
  blocked: string[];
  /** Replaces this test's page with one in a new context (a phone's viewport, a permission). */
  reopen: (options?: ContextOptions) => Promise<Page>;
}

/**
 * A fresh page before each test, in a context that reaches only loopback addresses, so no test
 * can touch the network. `setup` runs on each new context before its page opens.
 */
export function setupOfflinePage(browser: Browser, defaults: ContextOptions = {}, setup?: (context: BrowserContext) => Promise<void>): OfflinePage {
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const blocked: string[] = [];
  const reopen = async (options: ContextOptions = defaults): Promise<Page> => {
    await context?.close();
    blocked.length = 0;
    context = await browser.newContext(options);
    // One array for the whole file, emptied per page, so tests and helpers can hold on to it.
    await allowOnlyLoopback(context, blocked);
    await setup?.(context);
    page = await context.newPage();
    return page;
  };
  beforeEach(async () => {
    await reopen();
  });
  afterAll(async () => {
    await context?.close();
  });
  return { page: lateBound("The page", () => page), context: lateBound("The browser context", () => context), blocked, reopen };
}

/**
 * Waits until the page has settled after what a test did to it: loaded (every image has fired its
 * load or error), no request in flight for half a second (Playwright's network idle) and two frames
 * painted, so handlers, image errors and re-renders it started have run. For a test that checks
 * that something did *not* happen.
 *
 * Network idle is Playwright's heuristic, not a page event: once, on a loaded CI machine, it did
 * not come within 30 s on a page whose requests had all ended, and failed the XSS journey. So its
 * wait is bounded and a timeout passes on to the frames; "load" and the frames are what the
 * checks need, the idle wait only gives late requests their chance.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch((error: unknown) => {
    if (!(error instanceof errors.TimeoutError)) throw error;
  });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** The request of a widget's last run as the simulator saw it (the router's or a provider's). */
export function lastTaskRequest(sim: ProviderSimulator): ProviderSimulator["requests"][number] {
  const found = [...sim.requests].reverse().find((r) => r.service === "router" || r.service === "provider");
  if (!found) throw new Error(`no provider request; saw ${sim.requests.map((r) => r.originalUrl).join(", ")}`);
  return found;
}

/** Opens a task widget's page and waits until React owns its inputs. */
export async function openWidget(page: Page, url: string, task?: string): Promise<void> {
  const submit = `[data-task-widget${task ? `=${task}` : ""}] button[type=submit]`;
  await page.goto(url);
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  await page.waitForSelector(submit);
  await page.waitForLoadState("networkidle");
  // The inputs start with the task's example: typing before React owns them can land in front of it.
  await waitForHydration(page, submit);
}

/**
 * Runs the widget on the page and waits for its answer: fails with the widget's error if it shows
 * one, checks the time-and-size footer, and returns the result's text.
 */
export async function runWidget(page: Page, opts: { timeout?: number } = {}): Promise<string> {
  await page.locator("[data-task-widget]").getByRole("button", { name: "Run" }).click();
  await page.locator("[data-widget-result], [data-widget-error]").first().waitFor({ timeout: opts.timeout ?? 30_000 });
  const error = page.locator("[data-widget-error]");
  if ((await error.count()) > 0) throw new Error(`widget error: ${await error.innerText()}`);
  expect(await page.locator("[data-widget-metrics]").innerText()).toMatch(/^(\d+ ms|[\d.]+ s) · [\d.]+ (B|KB|MB) · via [\w-]+$/);
  return page.locator("[data-widget-result]").innerText();
}

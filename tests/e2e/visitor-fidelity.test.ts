/**
 * The newest models as a visitor finds them on the bundled catalogue (issue 32), in Chromium
 * against the real server: chat models known only by their provider mapping (tagless list rows)
 * chat, with every provider and chat code; legacy one-part ids redirect as the Hub's do.
 * Providers are the SIMULATOR; nothing is run unless a test sends a message.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { allowOnlyLoopback, launchBrowser } from "./support/browser.ts";
import { startTestServer, type TestServer } from "./support/server.ts";
import { startProviderSimulator, type ProviderSimulator } from "../simulators/provider-simulator.ts";

const LLAMA = "meta-llama/Llama-3.3-70B-Instruct";
const COHERE = "CohereLabs/c4ai-command-a-03-2025";

let sim: ProviderSimulator;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  sim = await startProviderSimulator();
  server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sim?.close();
});

beforeEach(async () => {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await allowOnlyLoopback(context);
  page = await context.newPage();
});

describe("chat models known by their provider mapping", () => {
  it(`${LLAMA} (tags: []) has the chat demo, all nine providers and chat code`, async () => {
    await page.goto(`${server.url}/${LLAMA}`);
    await page.waitForSelector("#demo [data-chat-demo]");
    const providers = await page.locator("#demo select[name=provider] option").allTextContents();
    expect(providers).toEqual(expect.arrayContaining(["cerebras", "fireworks-ai", "sambanova", "together", "groq", "hf-inference", "hyperbolic", "nebius", "novita"]));
  });

  it(`the playground chats with ${LLAMA} instead of saying nothing serves it, with chat code for every provider`, async () => {
    await page.goto(`${server.url}/playground/${LLAMA}`);
    await page.waitForSelector("[data-chat-demo]");
    expect(await page.locator("main").innerText()).not.toContain("cannot be run");
    const panel = page.locator("[data-inference-panel]");
    await panel.waitFor();
    const panelProviders = (await panel.locator("select[name=provider] option").allTextContents()).join(" ");
    for (const p of ["cerebras", "fireworks-ai", "sambanova"]) expect(panelProviders).toContain(p);
    expect(await panel.innerText()).toContain("chatCompletion");
    expect(await panel.innerText()).not.toContain("textGeneration(");
  });

  it(`${COHERE} offers cohere for chat, not "cannot call … for text-generation"`, async () => {
    const html = await (await fetch(`${server.url}/${COHERE}`)).text();
    expect(html).not.toContain("cannot call for text-generation");
    expect(html).not.toMatch(/cannot call[^<]*text-generation/);
    await page.goto(`${server.url}/${COHERE}`);
    await page.waitForSelector("#demo [data-chat-demo]");
    expect(await page.locator("#demo select[name=provider] option").allTextContents()).toContain("cohere");
  });
});

describe("legacy one-part ids", () => {
  it.each([
    ["gpt2", "openai-community/gpt2"],
    ["bert-base-uncased", "google-bert/bert-base-uncased"],
    ["roberta-base", "FacebookAI/roberta-base"],
    ["t5-small", "google-t5/t5-small"],
  ])("/%s redirects to /%s, as the Hub does", async (legacy, moved) => {
    const res = await fetch(`${server.url}/${legacy}`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`/${moved}`);
    await page.goto(`${server.url}/${legacy}`);
    expect(new URL(page.url()).pathname).toBe(`/${moved}`);
    expect(await page.locator("h1").first().innerText()).toContain(moved.split("/")[1]!);
  });

  it("a one-part id that names nothing still answers 404 with suggestions", async () => {
    const res = await fetch(`${server.url}/no-such-model-anywhere`, { redirect: "manual" });
    expect(res.status).toBe(404);
  });
});

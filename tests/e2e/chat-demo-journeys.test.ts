/**
 * Chat demo journeys in Chromium against the real server (`modelyard serve`) with the provider
 * SIMULATOR as MODELYARD_UPSTREAM_OVERRIDE: a streamed reply, stop mid-stream, an error shown in
 * place with the input kept, a reply cut off mid-stream kept and marked, edit-and-resend, the playground's session saved and opened again, the
 * model page's demo slot, and the settings token flow. Screenshots of the demo (light and dark) go to test-results/screenshots/.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { screenshot, settle, setupBrowser, setupOfflinePage, setupServer, setupSimulator, simulatedInference } from "#tests/e2e/support/journey.ts";
import { waitForHydration } from "#tests/e2e/support/browser.ts";

const MODEL = "meta-llama/Meta-Llama-3-8B-Instruct";
const SERVER_KEY = "hf_e2eServerKey0000000000";
const VISITOR_KEY = "hf_e2eVisitorKey111111111";

const sim = setupSimulator({ options: { tokenDelayMs: 15 } });
const server = setupServer(() => ({ env: simulatedInference(sim, SERVER_KEY) }));
const browser = setupBrowser();
const { page, blocked } = setupOfflinePage(browser, { viewport: { width: 1200, height: 900 } });

async function openPlayground(): Promise<void> {
  await page.goto(`${server.url}/playground/${MODEL}`);
  await page.waitForSelector("[data-chat-demo]");
  // Hydrated when the Send button reacts to typing.
  await page.waitForFunction(() => document.querySelector("textarea[name=message]") !== null);
  // The simulator's hf-inference only knows its own fixture models; together answers any model id.
  await page.locator("[data-chat-demo] select[name=provider]").selectOption("together");
}

const assistantTurns = () => page.locator('[data-turn="assistant"]');

async function typeAndSend(text: string): Promise<void> {
  const box = page.locator("textarea[name=message]");
  await box.fill(text);
  await expect.poll(() => page.locator("[data-chat-demo]").getByRole("button", { name: "Send" }).isEnabled(), { timeout: 15_000 }).toBe(true);
  await box.press("Enter");
}

describe("chat demo", () => {
  it("streams a reply from the simulator, renders it as markdown, and shows the metrics", async () => {
    await openPlayground();
    await typeAndSend("Tell me about **bold** things");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"] [data-chat-metrics]');
    const reply = await assistantTurns().last().innerText();
    expect(reply).toContain('you said "Tell me about bold things"');
    expect(await assistantTurns().last().locator("strong").innerText()).toBe("bold");
    const metrics = await page.locator("[data-chat-metrics]").innerText();
    expect(metrics).toMatch(/first token \d+ ms · [\d.]+ tokens\/s · \d+ prompt · \d+ completion tokens/);
    expect(await page.locator("textarea[name=message]").inputValue()).toBe("");
    const req = sim.requests.find((r) => r.service === "router");
    expect(req?.originalUrl).toBe("https://router.huggingface.co/together/v1/chat/completions");
    expect(req?.bodyJson).toMatchObject({ stream: true, temperature: 1, top_p: 0.95, max_tokens: 1024 });
    expect(blocked).toEqual([]);
    // The snippets panel follows the demo's provider and streaming setting.
    await expect.poll(() => page.locator("[data-inference-panel] select[name=provider]").inputValue(), { timeout: 15_000 }).toBe("together");
    expect(await page.locator("[data-inference-panel] input[name=stream]").isChecked()).toBe(true);
    expect(await page.locator("[data-inference-panel]").innerText()).toContain('provider: "together"');
    await page.screenshot({ path: screenshot("chat-demo-light.png") });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: screenshot("chat-demo-dark.png") });
  });

  it("Shift+Enter adds a new line instead of sending", async () => {
    await openPlayground();
    const box = page.locator("textarea[name=message]");
    await box.fill("line one");
    await box.press("Shift+Enter");
    await box.type("line two");
    expect(await box.inputValue()).toBe("line one\nline two");
    expect(await page.locator('[data-turn="user"]').count()).toBe(0);
  });

  it("stops mid-stream: the partial reply stays, no more tokens arrive", async () => {
    sim.scriptFault({ path: "chat/completions" }, { kind: "slow", tokenDelayMs: 250 });
    await openPlayground();
    await typeAndSend("Please go slowly");
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-turn="assistant"] [data-chat-markdown]');
      return el !== null && (el.textContent ?? "").length > 0;
    });
    await page.getByRole("button", { name: "Stop" }).click();
    await page.waitForSelector('[data-turn="assistant"][data-status="stopped"]');
    const partial = await assistantTurns().last().locator("[data-chat-markdown]").innerText();
    // Once the server has cancelled the upstream stream, no token can still be on its way.
    await expect.poll(() => server.output().includes(`"outcome":"cancelled"`), { timeout: 15_000 }).toBe(true);
    await settle(page);
    expect(await assistantTurns().last().locator("[data-chat-markdown]").innerText()).toBe(partial);
    expect(partial).not.toContain("Please go slowly");
    expect(await page.getByText("Stopped.").count()).toBe(1);
    // Send is back, and Regenerate asks again.
    await page.getByRole("button", { name: "Regenerate" }).click();
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]', { timeout: 30_000 });
  });

  it("shows an error in place, in plain words, and keeps the message in the box", async () => {
    sim.scriptFault({ path: "chat/completions" }, { kind: "error", status: 429 });
    await openPlayground();
    await typeAndSend("This one will fail");
    const alert = page.locator("[data-chat-error]");
    await alert.waitFor();
    expect(await alert.getAttribute("data-chat-error")).toBe("provider_rate_limited");
    expect(await alert.innerText()).toContain("The provider is rate-limiting this token. Wait a little and try again.");
    expect(await page.locator("textarea[name=message]").inputValue()).toBe("This one will fail");
    expect(await page.locator('[data-turn="user"]').count()).toBe(0);
    // Sending again (the fault was used up) works and clears the error.
    await page.locator("textarea[name=message]").press("Enter");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]');
    expect(await page.locator("[data-chat-error]").count()).toBe(0);
  });

  it("keeps a reply cut off after it began, marked with why, and Regenerate asks again", async () => {
    sim.scriptFault({ path: "chat/completions" }, { kind: "mid-stream-error", afterChunks: 3, message: "GPU fell over" });
    await openPlayground();
    await typeAndSend("Start, then fail");
    await page.waitForSelector('[data-turn="assistant"][data-status="error"]');
    const reply = assistantTurns().last();
    expect((await reply.locator("[data-chat-markdown]").innerText()).length).toBeGreaterThan(0);
    expect(await reply.locator("[data-cut-off]").innerText()).toBe("Cut off here.");
    // Why, once, below the conversation.
    expect(await page.locator("[data-chat-error]").innerText()).toContain("GPU fell over");
    // The message stays in the conversation, so it is not put back in the box as well.
    expect(await page.locator('[data-turn="user"]').count()).toBe(1);
    expect(await page.locator("textarea[name=message]").inputValue()).toBe("");
    await page.screenshot({ path: screenshot("chat-demo-cut-off.png") });
    await page.getByRole("button", { name: "Regenerate" }).click();
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]');
    expect(await assistantTurns().count()).toBe(1);
    expect(await page.locator("[data-chat-error]").count()).toBe(0);
  });

  it("edit and resend replaces the conversation from that message on", async () => {
    await openPlayground();
    await typeAndSend("first question");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]');
    await page.getByRole("button", { name: "Edit and resend" }).click();
    expect(await page.locator("textarea[name=message]").inputValue()).toBe("first question");
    expect(await page.locator("[data-turn]").count()).toBe(0);
    await typeAndSend("second question");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]');
    expect(await page.locator('[data-turn="user"]').count()).toBe(1);
    expect(await assistantTurns().last().innerText()).toContain('you said "second question"');
  });

  it("saves the conversation as a session and opens it again, loading the session view only then", async () => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    const sessionViewLoaded = () => scripts.some((s) => /\/session-view-[\w-]+\.js$/.test(s));
    await openPlayground();
    await typeAndSend("Keep this one");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]');
    // The view draws every task's output: the playground's first load does without it.
    expect(sessionViewLoaded()).toBe(false);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Save session" }).click()]);
    const file = path.join(server.dir, "playground-session.json");
    await download.saveAs(file);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ kind: "modelyard-session", source: "playground", columns: [{ modelId: MODEL, route: "together" }] });

    await page.reload();
    await waitForHydration(page, "[data-open-session]");
    sim.reset();
    await page.locator("[data-open-session]").setInputFiles(file);
    await page.waitForSelector("[data-session-view]");
    expect(sessionViewLoaded()).toBe(true);
    expect(await page.locator("[data-session-column]").innerText()).toContain('you said "Keep this one"');
    expect(sim.requests.filter((r) => r.path.includes("chat/completions"))).toEqual([]);
    expect(blocked).toEqual([]);
  });

  it("appears in the model page's demo slot", async () => {
    await page.goto(`${server.url}/${MODEL}`);
    await page.waitForSelector("#demo [data-chat-demo]");
    // Compact in the sidebar: the settings start folded.
    await page.locator("#demo summary", { hasText: "Settings" }).click();
    await page.locator("#demo select[name=provider]").selectOption("together");
    await typeAndSend("from the model page");
    await page.waitForSelector('#demo [data-turn="assistant"][data-status="done"]');
    expect(await page.locator("#demo").getByRole("link", { name: "Open playground" }).getAttribute("href")).toBe(`/playground/${MODEL}`);
    await page.locator("#demo").screenshot({ path: screenshot("chat-demo-model-page.png") });
  });
});

describe("settings token flow", () => {
  it("saves the token in this browser only, uses it for demo calls, and clears it", async () => {
    await page.goto(`${server.url}/settings`);
    await page.waitForSelector('[data-token-status="none"]');
    await page.locator("input[name=token]").fill("not a token");
    await page.getByRole("button", { name: "Save" }).click();
    expect(await page.getByRole("alert").innerText()).toBe("A token is one word, without spaces.");
    await page.locator("input[name=token]").fill(VISITOR_KEY);
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForSelector('[data-token-status="saved"]');
    const shown = await page.locator('[data-token-status="saved"] code').innerText();
    expect(shown.startsWith("hf_e2")).toBe(true);
    expect(shown).not.toContain(VISITOR_KEY.slice(6));
    expect(await page.evaluate(() => window.localStorage.getItem("modelyard.hfToken"))).toBe(VISITOR_KEY);

    await openPlayground();
    await expect.poll(() => page.getByText("Using your token from").count(), { timeout: 15_000 }).toBe(1);
    await typeAndSend("with my own token");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]');
    await expect.poll(() => server.output().includes(`"auth":"visitor"`), { timeout: 15_000 }).toBe(true);
    expect(server.output()).not.toContain(VISITOR_KEY);

    await page.goto(`${server.url}/settings`);
    await page.waitForSelector('[data-token-status="saved"]');
    await page.getByRole("button", { name: "Clear token" }).click();
    await page.waitForSelector('[data-token-status="none"]');
    expect(await page.evaluate(() => window.localStorage.getItem("modelyard.hfToken"))).toBeNull();
    await page.reload();
    await page.waitForSelector('[data-token-status="none"]');
  });
});

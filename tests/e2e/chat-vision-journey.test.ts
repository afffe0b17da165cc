/**
 * Vision chat in Chromium against the real server and the provider SIMULATOR: an
 * image-text-to-text model (imported with the real `modelyard import`) takes an attached image,
 * shows it before sending and in the conversation, and sends it to the provider as an OpenAI
 * image_url content part; a file that is not an image is refused in place. Axe light and dark.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import { allowOnlyLoopback, launchBrowser } from "#tests/e2e/support/browser.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";
import { makePng } from "#tests/simulators/media.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const MODEL = "modelyard-e2e/vision-chat-7b";
const SHOTS = path.resolve(import.meta.dirname, "..", "..", "test-results", "screenshots");

let sim: ProviderSimulator;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let dir: string;

beforeAll(async () => {
  sim = await startProviderSimulator();
  server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, MODELYARD_ACCESS: "open", HF_TOKEN: "hf_e2eServerKey0000000000", MODELYARD_INFERENCE_RATE_LIMIT: "1000" } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-vision-"));
  const record = { id: MODEL, pipeline_tag: "image-text-to-text", tags: ["conversational", "image-text-to-text"], inferenceProviderMapping: { together: { providerId: "vision/chat-7b", task: "conversational", status: "live" } } };
  fs.writeFileSync(path.join(dir, "vision.jsonl"), `${JSON.stringify(record)}\n`);
  await importIntoServer(server, path.join(dir, "vision.jsonl"));
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await allowOnlyLoopback(context);
  page = await context.newPage();
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sim?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("vision chat", () => {
  it("attaches an image, previews it, sends it as an image_url part, and shows the reply", async () => {
    sim.reset();
    sim.addHubModel({ id: MODEL, pipeline_tag: "image-text-to-text", tags: ["conversational"], inferenceProviderMapping: { together: { status: "live", providerId: "vision/chat-7b", task: "conversational" } } });
    await page.goto(`${server.url}/playground/${MODEL}`);
    await page.waitForSelector("[data-chat-demo] [data-chat-attachments]", { state: "attached" });
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.waitForLoadState("networkidle");

    // Not an image: refused before anything is sent.
    const picker = page.locator("[data-chat-demo] input[type=file][name=image]");
    await picker.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("plain text, not a picture") });
    expect(await page.locator("[data-chat-attach-problem]").innerText()).toMatch(/^This file is not an image/);

    const png = makePng("a tabby cat", 24);
    await picker.setInputFiles({ name: "cat.png", mimeType: "image/png", buffer: png });
    await page.getByRole("img", { name: "Image 1 to send" }).waitFor();
    expect(await page.locator("[data-chat-attach-problem]").count()).toBe(0);
    // Remove, then attach again: the preview follows.
    await page.getByRole("button", { name: "Remove image 1" }).click();
    expect(await page.getByRole("img", { name: "Image 1 to send" }).count()).toBe(0);
    await picker.setInputFiles({ name: "cat.png", mimeType: "image/png", buffer: png });
    await page.getByRole("img", { name: "Image 1 to send" }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "chat-vision-attached-light.png") });

    await page.locator("textarea[name=message]").fill("What is in this picture?");
    await page.locator("textarea[name=message]").press("Enter");
    await page.waitForSelector('[data-turn="assistant"][data-status="done"]', { timeout: 20_000 });
    const reply = await page.locator('[data-turn="assistant"]').last().innerText();
    expect(reply).toContain('you said "What is in this picture?" and showed me 1 image (image/png)');
    // The conversation keeps the image with the message; the box is cleared.
    expect(await page.locator('[data-turn="user"] img').getAttribute("alt")).toBe("Attached image 1");
    expect(await page.getByRole("img", { name: "Image 1 to send" }).count()).toBe(0);

    const req = sim.requests.find((r) => r.service === "router");
    expect(req?.originalUrl).toBe("https://router.huggingface.co/together/v1/chat/completions");
    const messages = (req?.bodyJson as { messages: Array<{ role: string; content: unknown }> }).messages;
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
      ],
    });

    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const violations = await runAxe(page);
      expect(violations, `${scheme}: ${describeViolations(violations)}`).toEqual([]);
      await page.locator("[data-chat-demo]").screenshot({ path: path.join(SHOTS, `chat-vision-${scheme}.png`) });
    }
  });
});

/**
 * Vision chat in Chromium against the real server and the provider SIMULATOR: an
 * image-text-to-text model (imported with the real `modelyard import`) takes an attached image,
 * shows it before sending and in the conversation, and sends it to the provider as an OpenAI
 * image_url content part; a file that is not an image is refused in place. Axe light and dark.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupOfflinePage, setupServer, setupSimulator, simulatedInference } from "#tests/e2e/support/journey.ts";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import { describeViolations, runAxe } from "#tests/e2e/support/page-audit.ts";
import { makePng } from "#tests/simulators/media.ts";

const MODEL = "modelyard-e2e/vision-chat-7b";

const RECORD = { id: MODEL, pipeline_tag: "image-text-to-text", tags: ["conversational", "image-text-to-text"], inferenceProviderMapping: { together: { providerId: "vision/chat-7b", task: "conversational", status: "live" } } };

const sim = setupSimulator({
  onReset: (s) => s.addHubModel({ id: MODEL, pipeline_tag: "image-text-to-text", tags: ["conversational"], inferenceProviderMapping: { together: { status: "live", providerId: "vision/chat-7b", task: "conversational" } } }),
});
const server = setupServer(
  () => ({ env: simulatedInference(sim, "hf_e2eServerKey0000000000") }),
  async (s) => {
    const file = path.join(s.dir, "vision.jsonl");
    fs.writeFileSync(file, `${JSON.stringify(RECORD)}\n`);
    await importIntoServer(s, file);
  },
);
const browser = setupBrowser();
const { page } = setupOfflinePage(browser, { viewport: { width: 1200, height: 900 } });

describe("vision chat", () => {
  it("attaches an image, previews it, sends it as an image_url part, and shows the reply", async () => {
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
    await page.screenshot({ path: screenshot("chat-vision-attached-light.png") });

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
      await page.locator("[data-chat-demo]").screenshot({ path: screenshot(`chat-vision-${scheme}.png`) });
    }
  });
});

/**
 * Audio task widgets in Chromium against the real server with the provider SIMULATOR: upload a
 * real WAV or FLAC (tests/simulators/media.ts), run each audio task on the playground, check the
 * transcript, the chart and the players, the request that reached the provider, axe light and
 * dark, and screenshots (desktop and phone). The microphone is Chromium's fake device
 * (--use-fake-device-for-media-stream), granted in one context and refused in another. The task
 * guide's example stands in when nothing serves the model (for every audio task, drawn by the
 * task's own output component, its recordings from a local stand-in for the guide's asset host,
 * and compared with @huggingface/tasks), and offline on the model page.
 */
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hfInferenceHubModels, lastTaskRequest, openWidget, runWidget, setupBrowser, setupOfflinePage, setupServer, setupSimulator, setupTaskAssetHost, simulatedInference } from "#tests/e2e/support/journey.ts";
import { auditWidget } from "#tests/e2e/support/widget-audit.ts";
import { barLabels, chartByScore, demoEntry, expectExampleMedia, expectExampleNotLive, importUnservedModels, unservedModelId } from "#tests/e2e/support/task-examples.ts";
import { WIDGET_FAMILIES } from "#app/tasks/task-records.ts";
import { makeFlac, makeWav } from "#tests/simulators/media.ts";

const SERVER_KEY = "hf_e2eServerKey0000000000";
const DESKTOP = { width: 1100, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Bundled catalogue models with an hf-inference mapping for their audio task (whisper-large-v3 is in the simulator's Hub fixture with all three providers). */
const HUB_MODELS: Array<[string, string]> = [
  ["superb/hubert-large-superb-er", "audio-classification"],
  ["speechbrain/sepformer-wham", "audio-to-audio"],
  ["espnet/kan-bayashi_ljspeech_vits", "text-to-speech"],
];

const sim = setupSimulator({ onReset: hfInferenceHubModels(HUB_MODELS) });
const assets = setupTaskAssetHost();
const server = setupServer(() => ({ env: simulatedInference(sim, SERVER_KEY, { MODELYARD_TASK_ASSET_BASE: assets.base }) }), (s) => importUnservedModels(s, WIDGET_FAMILIES.audio));
// Chromium's fake microphone (a beep), for this file only; permission is still asked per context.
const browser = setupBrowser({ args: ["--use-fake-device-for-media-stream"] });
const { page, context, blocked, reopen } = setupOfflinePage(browser, { viewport: DESKTOP });

async function upload(name: string, bytes: Buffer, mimeType: string): Promise<void> {
  await page.locator("[data-audio-input] input[type=file]").setInputFiles({ name, mimeType, buffer: bytes });
  await page.locator(`[data-audio-chosen="${name}"] audio`).waitFor();
}

describe("audio task widgets on the playground", () => {
  it("automatic-speech-recognition: a FLAC upload, its player, then the transcript", async () => {
    const model = "openai/whisper-large-v3";
    await openWidget(page, `${server.url}/playground/${model}`);
    expect(await page.locator("h1").innerText()).toBe(`Automatic Speech Recognition with ${model}`);
    // Nothing chosen yet: Run says what is missing, in place.
    await page.locator("[data-task-widget]").getByRole("button", { name: "Run" }).click();
    expect(await page.locator("[data-widget-error]").innerText()).toContain("Upload or record some audio first.");
    await upload("hello.flac", makeFlac("hello world"), "audio/flac");
    await page.locator("[data-task-widget] select[name=provider]").selectOption("hf-inference");
    await runWidget(page);
    expect((await page.locator("[data-transcript]").innerText()).length).toBeGreaterThan(3);
    expect(lastTaskRequest(sim)).toMatchObject({ originalUrl: `https://router.huggingface.co/hf-inference/models/${model}`, bodyMedia: "flac" });
    await auditWidget(page, "automatic-speech-recognition", { blocked });
    // fal-ai takes no FLAC (3.13.1 says so before sending); a WAV goes as a data: audio_url.
    await page.locator("[data-task-widget] select[name=provider]").selectOption("fal-ai");
    await page.locator("[data-task-widget]").getByRole("button", { name: "Run" }).click();
    expect(await page.locator("[data-widget-error]").innerText()).toContain("Provider fal-ai does not support blob type audio/flac");
    await upload("hello.wav", makeWav("hello world"), "audio/wav");
    await runWidget(page);
    expect((await page.locator("[data-transcript]").innerText()).length).toBeGreaterThan(3);
    expect(String((lastTaskRequest(sim).bodyJson as { audio_url?: string }).audio_url)).toMatch(/^data:audio\/wav;base64,/);
  });

  it("a file that is not audio is refused before it is sent", async () => {
    await openWidget(page, `${server.url}/playground/openai/whisper-large-v3`);
    await page.locator("[data-audio-input] input[type=file]").setInputFiles({ name: "notes.wav", mimeType: "audio/wav", buffer: Buffer.from("just some text, not a recording") });
    expect(await page.locator("[data-audio-problem]").innerText()).toMatch(/^This file is not a recording\. Accepted formats: /);
    expect(await page.locator("[data-audio-chosen]").count()).toBe(0);
  });

  it("audio-classification: a WAV upload, a bar per label with a table for screen readers", async () => {
    await openWidget(page, `${server.url}/playground/superb/hubert-large-superb-er`);
    await upload("clip.wav", makeWav("hello world"), "audio/wav");
    await runWidget(page);
    const bars = await page.locator("[data-widget-result] [data-bar]").evaluateAll((els) => els.map((e) => e.getAttribute("data-bar")));
    expect(bars.sort()).toEqual(["applause", "dog bark", "music", "silence", "speech"]);
    expect(await page.locator("[data-widget-result] table tbody tr").count()).toBe(5);
    expect(lastTaskRequest(sim).bodyMedia).toBe("wav");
    await auditWidget(page, "audio-classification", { blocked });
  });

  it("audio-to-audio: one player per returned track, with its label and a download", async () => {
    await openWidget(page, `${server.url}/playground/speechbrain/sepformer-wham`);
    await upload("mix.wav", makeWav("two voices"), "audio/wav");
    await runWidget(page);
    const tracks = page.locator("[data-audio-track]");
    expect(await tracks.evaluateAll((els) => els.map((e) => e.getAttribute("data-audio-track")))).toEqual(["speech", "noise"]);
    expect(await tracks.locator("audio").count()).toBe(2);
    // The players hold real FLAC the browser can read (its duration is known once loaded).
    const duration = await tracks.first().locator("audio").evaluate(async (a: HTMLAudioElement) => {
      if (a.readyState < 1) await new Promise((r) => a.addEventListener("loadedmetadata", r, { once: true }));
      return a.duration;
    });
    expect(duration).toBeGreaterThan(0);
    expect(await tracks.first().getByRole("link", { name: "Download speech" }).getAttribute("download")).toBe("speech.flac");
    await auditWidget(page, "audio-to-audio", { blocked });
  });

  it("text-to-speech: text in, a player and a download out", async () => {
    await openWidget(page, `${server.url}/playground/espnet/kan-bayashi_ljspeech_vits`);
    expect(await page.locator("textarea[name=inputs]").inputValue()).toBe("I love audio models on the Hub!");
    await page.locator("textarea[name=inputs]").fill("Hello there");
    await runWidget(page);
    const out = page.locator("[data-media-output=audio]");
    expect(await out.locator("figcaption").innerText()).toMatch(/^audio\/wav · [\d.]+ (B|KB)/);
    const link = out.getByRole("link", { name: "Download hello-there.wav" });
    expect(await link.getAttribute("download")).toBe("hello-there.wav");
    expect(await link.getAttribute("href")).toMatch(/^blob:/);
    // The player holds audio the browser can read (its duration is known once loaded).
    const duration = await out.locator("audio").evaluate(async (a: HTMLAudioElement) => {
      if (a.readyState < 1) await new Promise((r) => a.addEventListener("loadedmetadata", r, { once: true }));
      return a.duration;
    });
    expect(duration).toBeGreaterThan(0);
    expect(lastTaskRequest(sim).bodyJson).toMatchObject({ inputs: "Hello there" });
    await auditWidget(page, "text-to-speech", { blocked });
  });

  it("on a phone: the audio input and a result fit the screen", async () => {
    await reopen({ viewport: PHONE });
    await openWidget(page, `${server.url}/playground/superb/hubert-large-superb-er`);
    await upload("clip.wav", makeWav("phone"), "audio/wav");
    await runWidget(page);
    // The chart's screen-reader table once widened the page by 21 px here.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await auditWidget(page, "audio-classification-phone", { blocked });
  });
});

describe("recording from the microphone", () => {
  it("records from the (fake) microphone when allowed, plays it back and classifies it", async () => {
    await reopen({ viewport: DESKTOP, permissions: ["microphone"] });
    await openWidget(page, `${server.url}/playground/superb/hubert-large-superb-er`);
    await page.getByRole("button", { name: "Record from microphone" }).click();
    const stop = page.locator("[data-recording]");
    // A second of the fake microphone's beep, as the button counts it.
    await page.getByRole("button", { name: "Stop recording (1 s)" }).waitFor();
    await stop.click();
    await page.locator('[data-audio-chosen^="recording."] audio').waitFor();
    await runWidget(page);
    expect(await page.locator("[data-widget-result] [data-bar]").count()).toBe(5);
    expect(["webm", "ogg", "mp4"]).toContain(lastTaskRequest(sim).bodyMedia);
    await auditWidget(page, "audio-recorded", { blocked });
  });

  it("says so when the visitor refuses the microphone, and keeps upload", async () => {
    await openWidget(page, `${server.url}/playground/superb/hubert-large-superb-er`);
    await page.getByRole("button", { name: "Record from microphone" }).click();
    const problem = page.locator("[data-audio-problem]");
    await problem.waitFor();
    expect(await problem.innerText()).toMatch(/^Microphone access was denied\. Allow it for this site in the browser’s settings, or upload a file instead\.$/);
    await upload("clip.wav", makeWav("after refusal"), "audio/wav");
    expect(await problem.count()).toBe(0);
    await auditWidget(page, "audio-microphone-denied", { blocked });
  });
});

/** The guide's file for this task on the local asset host. */
const assetUrl = (task: string, filename: string) => `${assets.base}/${task}/${filename}`;

/** How each audio task's example output must be drawn: by the task's own output component, with the guide's values. */
const EXAMPLE_CHECKS: Record<(typeof WIDGET_FAMILIES.audio)[number], (output: Locator, inputs: Locator) => Promise<void>> = {
  "automatic-speech-recognition": async (output, inputs) => {
    expect(await output.locator("[data-transcript]").innerText()).toBe(demoEntry("automatic-speech-recognition", "outputs", "text").content);
    await expectExampleMedia(inputs, "audio", assetUrl("automatic-speech-recognition", demoEntry("automatic-speech-recognition", "inputs", "audio").filename));
  },
  "audio-classification": async (output) => {
    // Highest first, as a run's chart is (the guide lists them lowest first).
    expect(await barLabels(output)).toEqual(chartByScore("audio-classification").map((d) => d.label));
  },
  "audio-to-audio": async (output) => {
    // One player per separated track the guide gives.
    expect(await output.locator("audio").count()).toBe(2);
    for (const i of [0, 1]) await expectExampleMedia(output, "audio", assetUrl("audio-to-audio", demoEntry("audio-to-audio", "outputs", "audio", i).filename), i);
  },
  "text-to-speech": async (output, inputs) => {
    await expectExampleMedia(output, "audio", assetUrl("text-to-speech", demoEntry("text-to-speech", "outputs", "audio").filename));
    expect(await inputs.innerText()).toContain(demoEntry("text-to-speech", "inputs", "text").content);
  },
};

describe("the task guide's example instead of a live result", () => {
  it.each(WIDGET_FAMILIES.audio.map((task) => [task] as const))("%s: nothing serves the model, the guide's example drawn as a run would be", async (task) => {
    await openWidget(page, `${server.url}/playground/${unservedModelId(task)}`);
    const output = await expectExampleNotLive(page);
    expect(await page.locator("[data-widget-example]").innerText()).toContain("No inference provider or configured endpoint serves this model");
    await EXAMPLE_CHECKS[task](output, page.locator("[data-widget-example] [data-example-side=inputs]"));
    await auditWidget(page, `example-${task}`, { blocked });
  });

  it("on the model page, offline: the slot's widget shows the guide's transcript", async () => {
    await page.goto(`${server.url}/openai/whisper-large-v3`);
    await page.waitForSelector("#demo [data-task-widget=automatic-speech-recognition] button[type=submit]");
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    const output = await expectExampleNotLive(page, { scope: page.locator("#demo"), offline: true });
    expect(await output.locator("[data-transcript]").innerText()).toBe(demoEntry("automatic-speech-recognition", "outputs", "text").content);
    await auditWidget(page, "example-model-page-automatic-speech-recognition", { blocked });
    await context.setOffline(false);
  });
});

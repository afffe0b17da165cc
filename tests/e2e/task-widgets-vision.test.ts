import { TASKS_DATA } from "@huggingface/tasks";
/**
 * Vision task widgets in Chromium against the real server (`modelyard serve`) with the provider
 * SIMULATOR as MODELYARD_UPSTREAM_OVERRIDE: for each vision task, upload a real image (or type a
 * prompt), run it, and check what is drawn (the label chart, boxes over the image, masks with their
 * legend, answers, the generated image or video with its download) and the request that reached the
 * provider; the task guide's example when nothing serves the model (for every vision task, drawn
 * by the task's own output component, its media from a local stand-in for the guide's asset host,
 * and compared with @huggingface/tasks) and offline on the model page; axe in light and dark; and
 * screenshots of every widget (light and dark, desktop and phone) in test-results/screenshots/.
 */
import fs from "node:fs";
import { gzipSync } from "node:zlib";
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hfInferenceHubModels, lastTaskRequest, openWidget, runWidget, screenshot, setupBrowser, setupOfflinePage, setupServer, setupSimulator, setupTaskAssetHost, simulatedInference } from "#tests/e2e/support/journey.ts";
import { auditWidget } from "#tests/e2e/support/widget-audit.ts";
import { barLabels, chartByScore, demoEntry, expectExampleMedia, expectExampleNotLive, importUnservedModels, unservedModelId } from "#tests/e2e/support/task-examples.ts";
import { percent } from "#app/demos/shared/label-score-chart.tsx";
import { WIDGET_FAMILIES } from "#app/tasks/task-records.ts";
import { makePng } from "#tests/simulators/media.ts";

const SERVER_KEY = "hf_e2eServerKey0000000000";
const PHOTO = makePng("vision journey photo", 64);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** Catalogue models (bundled, with an hf-inference mapping for their task) the simulator's Hub lacks. */
const EXTRA_HUB_MODELS: Array<[string, string]> = [
  ["openai/clip-vit-large-patch14-336", "zero-shot-image-classification"],
  ["facebook/detr-resnet-50", "object-detection"],
  ["facebook/detr-resnet-50-panoptic", "image-segmentation"],
  ["nlpconnect/vit-gpt2-image-captioning", "image-to-text"],
  ["dandelin/vilt-b32-finetuned-vqa", "visual-question-answering"],
  ["impira/layoutlm-document-qa", "document-question-answering"],
  ["lllyasviel/sd-controlnet-canny", "image-to-image"],
  ["stabilityai/stable-diffusion-xl-base-1.0", "text-to-image"],
];

const sim = setupSimulator({ onReset: hfInferenceHubModels(EXTRA_HUB_MODELS) });
const assets = setupTaskAssetHost();
const server = setupServer(() => ({ env: simulatedInference(sim, SERVER_KEY, { MODELYARD_TASK_ASSET_BASE: assets.base }) }), (s) => importUnservedModels(s, WIDGET_FAMILIES.vision));
const browser = setupBrowser();
const { page, context, blocked } = setupOfflinePage(browser, { viewport: { width: 1100, height: 900 } });

async function upload(name: string, bytes: Buffer, mimeType = "image/png"): Promise<void> {
  await page.locator("[data-image-input] input[type=file]").setInputFiles({ name, mimeType, buffer: bytes });
  await page.locator("[data-image-name]").waitFor();
  expect(await page.locator("[data-image-name]").innerText()).toBe(name);
}

describe("vision task widgets on the playground", () => {
  it("image-classification: an uploaded image in, a bar per label out, the request as curl -F", async () => {
    const model = "google/vit-base-patch16-224";
    await openWidget(page, `${server.url}/playground/${model}`, "image-classification");
    expect(await page.locator("h1").innerText()).toBe(`Image Classification with ${model}`);
    // Nothing to send yet, and the widget says how to give it an image.
    expect(await page.locator("[data-image-empty]").innerText()).toContain("choose a file, drop or paste one here, or load one from a URL");
    await upload("photo.png", PHOTO);
    await expect.poll(() => page.locator("[data-image-preview]").evaluate((img: HTMLImageElement) => img.src.startsWith("blob:") && img.naturalWidth === 64)).toBe(true);
    await runWidget(page);
    expect(await page.locator("[data-widget-result] [data-bar]").count()).toBeGreaterThan(1);
    expect(await page.locator("[data-widget-result] table tbody tr").count()).toBe(await page.locator("[data-widget-result] [data-bar]").count());
    expect(lastTaskRequest(sim).originalUrl).toBe(`https://router.huggingface.co/hf-inference/models/${model}`);
    const code = await page.locator("[data-widget-request-code] [data-code]").innerText();
    expect(code).toContain("-F 'inputs=@photo.png'");
    expect(code).not.toContain('"inputs"');
    await auditWidget(page, "image-classification", { blocked, phone: true });
  });

  it("image-classification: the guide's example image is in the URL field, loaded by the browser on request", async () => {
    const model = "google/vit-base-patch16-224";
    const demo = TASKS_DATA["image-classification"]?.demo.inputs.find((i) => i.type === "img");
    if (!demo || demo.type !== "img") throw new Error("the guide has no example image");
    assets.requests.length = 0;
    await openWidget(page, `${server.url}/playground/${model}`, "image-classification");
    const field = page.locator('input[name="image_url"]');
    expect(await field.inputValue()).toBe(`${assets.base}/image-classification/${demo.filename}`);
    // Nothing is fetched until the visitor asks.
    expect(assets.requests.filter((r) => r.endsWith(demo.filename))).toEqual([]);
    await page.getByRole("button", { name: "Load URL" }).click();
    await page.locator("[data-image-preview]").waitFor();
    expect(assets.requests.some((r) => r.endsWith(demo.filename))).toBe(true);
    await runWidget(page);
    expect(await page.locator("[data-widget-result] [data-bar]").count()).toBeGreaterThan(1);
    expect(lastTaskRequest(sim).headers["content-type"]).toMatch(/^image\//);
  });

  it("image input: a file that is not an image is refused by its bytes, before it is sent", async () => {
    await openWidget(page, `${server.url}/playground/google/vit-base-patch16-224`, "image-classification");
    await page.locator("[data-image-input] input[type=file]").setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: PDF });
    expect(await page.locator("[data-image-problem]").innerText()).toBe("This file is not an image (it is PDF). Accepted formats: PNG, JPEG, GIF, WebP, BMP, TIFF.");
    expect(await page.locator("[data-image-empty]").count()).toBe(1);
    // An image from a URL is fetched by the browser (here this site's own), then sent as bytes.
    await page.locator("input[name=image_url]").fill(`${server.url}/favicon.svg`);
    await page.getByRole("button", { name: "Load URL" }).click();
    // Waited for by its own words: the PDF's message, still shown, also starts "This file is not
    // an image", and a late answer for this URL would land on the next step's image.
    await expect
      .poll(() => page.locator("[data-image-problem]").innerText())
      .toBe("This file is not an image. Accepted formats: PNG, JPEG, GIF, WebP, BMP, TIFF.");
    // Another site's image: the page's policy keeps fetch() to this origin, so the browser reads a
    // CORS-enabled image through a canvas (served here by the test in place of the network).
    await page.route("https://images.example/photos/cat.png", (route) => route.fulfill({ status: 200, contentType: "image/png", headers: { "access-control-allow-origin": "*" }, body: PHOTO }));
    const refused: string[] = [];
    page.on("console", (m) => {
      if (m.text().includes("Content Security Policy")) refused.push(m.text());
    });
    await page.locator("input[name=image_url]").fill("https://images.example/photos/cat.png");
    await page.getByRole("button", { name: "Load URL" }).click();
    await page.locator("[data-image-name]").waitFor();
    expect(await page.locator("[data-image-name]").innerText()).toBe("cat.png");
    // The preview decodes after its name shows (width 0 until then, on a loaded machine).
    await expect.poll(() => page.locator("[data-image-preview]").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    expect(await page.locator("[data-image-problem]").count()).toBe(0);
    // The browser's console report of the refusal can reach this process after the page has moved on.
    await expect.poll(() => refused.some((t) => t.includes("connect-src"))).toBe(true);
  });

  it("zero-shot-image-classification: the guide's classes as candidate labels, labels by score out", async () => {
    await openWidget(page, `${server.url}/playground/openai/clip-vit-large-patch14-336`, "zero-shot-image-classification");
    expect(await page.locator("input[name=candidate_labels]").inputValue()).toBe("cat, dog, bird");
    await upload("pet.png", PHOTO);
    await page.locator("input[name=candidate_labels]").fill("cat, dog, car");
    await runWidget(page);
    const bars = await page.locator("[data-widget-result] [data-bar]").evaluateAll((els) => els.map((e) => e.getAttribute("data-bar")));
    expect([...bars].sort()).toEqual(["car", "cat", "dog"]);
    expect(lastTaskRequest(sim).bodyJson).toMatchObject({ parameters: { candidate_labels: ["cat", "dog", "car"] } });
    await auditWidget(page, "zero-shot-image-classification", { blocked, phone: true });
  });

  it("object-detection: boxes and labels drawn over the image, and a table of them", async () => {
    await openWidget(page, `${server.url}/playground/facebook/detr-resnet-50`, "object-detection");
    await upload("street.png", PHOTO);
    await runWidget(page);
    const rects = page.locator("[data-detection-overlay] rect");
    await rects.first().waitFor();
    const rows = await page.locator("[data-detection-table] tbody tr").count();
    expect(rows).toBeGreaterThanOrEqual(2);
    expect(await rects.count()).toBe(rows);
    // The simulator's boxes are half the image wide; drawn over it, they are half its width.
    const geometry = await page.locator("[data-detections]").evaluate((root) => {
      const img = root.querySelector("img")!.getBoundingClientRect();
      const box = root.querySelector("[data-detection-overlay] rect")!.getBoundingClientRect();
      return { ratio: box.width / img.width, inside: box.left >= img.left - 2 && box.right <= img.right + 2 && box.top >= img.top - 2 && box.bottom <= img.bottom + 2 };
    });
    expect(geometry.inside).toBe(true);
    expect(geometry.ratio).toBeGreaterThan(0.45);
    expect(geometry.ratio).toBeLessThan(0.55);
    await auditWidget(page, "object-detection", { blocked, phone: true });
  });

  it("image-segmentation: masks over the image, a legend, and a toggle per mask", async () => {
    await openWidget(page, `${server.url}/playground/facebook/detr-resnet-50-panoptic`, "image-segmentation");
    await upload("city.png", PHOTO);
    await runWidget(page);
    const toggles = page.locator("[data-segment-toggle]");
    const count = await toggles.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(await page.locator("[data-segmentation] canvas[data-mask]").count()).toBe(count);
    // Each mask was decoded and painted (some pixels tinted, none where the mask is dark).
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLCanvasElement>("canvas[data-mask]")].every((c) => c.width > 0));
    const painted = await page.locator("canvas[data-mask]").first().evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let visible = 0;
      for (let i = 3; i < d.length; i += 4) if ((d[i] ?? 0) > 0) visible++;
      return visible;
    });
    expect(painted).toBeGreaterThan(0);
    const first = await toggles.first().getAttribute("data-segment-toggle");
    await toggles.first().uncheck();
    expect(await page.locator(`canvas[data-mask="${first}"]`).isVisible()).toBe(false);
    await toggles.first().check();
    expect(await page.locator(`canvas[data-mask="${first}"]`).isVisible()).toBe(true);
    await auditWidget(page, "image-segmentation", { blocked, phone: true });
  });

  it("image-to-text: the caption", async () => {
    await openWidget(page, `${server.url}/playground/nlpconnect/vit-gpt2-image-captioning`, "image-to-text");
    await upload("scene.png", PHOTO);
    await runWidget(page);
    expect(await page.locator("[data-generated-text]").innerText()).toMatch(/^a simulated photo of a .+/);
    await auditWidget(page, "image-to-text", { blocked, phone: true });
  });

  it("visual-question-answering: the image as the file, the question in the JSON, answers with scores", async () => {
    await openWidget(page, `${server.url}/playground/dandelin/vilt-b32-finetuned-vqa`, "visual-question-answering");
    expect(await page.locator("input[name=question]").inputValue()).toBe("What is in this image?");
    await upload("room.png", PHOTO);
    await page.locator("input[name=question]").fill("Is there a cat?");
    await runWidget(page);
    // 3.13.1's visualQuestionAnswering returns the best answer only.
    expect(await page.locator("[data-vision-answer]").innerText()).toBe("yes");
    expect(await page.locator("[data-widget-result]").innerText()).toMatch(/score \d+\.\d%/);
    const body = lastTaskRequest(sim).bodyJson as { inputs: { question: string; image: string } };
    expect(body.inputs.question).toBe("Is there a cat?");
    expect(Buffer.from(body.inputs.image, "base64").equals(PHOTO)).toBe(true);
    await auditWidget(page, "visual-question-answering", { blocked, phone: true });
  });

  it("document-question-answering: a PDF and a question, the answer with its score", async () => {
    await openWidget(page, `${server.url}/playground/impira/layoutlm-document-qa`, "document-question-answering");
    await upload("invoice.pdf", PDF, "application/pdf");
    // A PDF has no picture preview; its name, type and size say what will be sent.
    expect(await page.locator("[data-image-preview]").count()).toBe(0);
    await page.locator("input[name=question]").fill("What is the total amount?");
    await runWidget(page);
    expect(await page.locator("[data-vision-answer]").innerText()).toBe("$1,234.00");
    expect(await page.locator("[data-widget-result]").innerText()).toMatch(/score \d+\.\d%/);
    await auditWidget(page, "document-question-answering", { blocked, phone: true });
  });

  it("text-to-image: the generated image, shown and downloadable", async () => {
    await openWidget(page, `${server.url}/playground/stabilityai/stable-diffusion-xl-base-1.0`, "text-to-image");
    expect(await page.locator("textarea[name=inputs]").inputValue()).toBe("A city above clouds, pastel colors, Victorian style");
    await page.locator("textarea[name=inputs]").fill("A lighthouse at dawn");
    // The simulator's fal-ai knows other apps than this model's; hf-inference answers with bytes.
    await page.locator("[data-task-widget] select[name=provider]").selectOption("hf-inference");
    await runWidget(page);
    expect(lastTaskRequest(sim).originalUrl).toBe("https://router.huggingface.co/hf-inference/models/stabilityai/stable-diffusion-xl-base-1.0");
    const img = page.locator("[data-media-output=image] img");
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.src.startsWith("blob:") && el.naturalWidth > 0)).toBe(true);
    const download = page.locator("[data-media-download]");
    expect(await download.getAttribute("download")).toBe("generated-image-a-lighthouse-at-dawn.png");
    const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
    const saved = await file.path();
    expect(fs.readFileSync(saved).subarray(1, 4).toString("ascii")).toBe("PNG");
    await auditWidget(page, "text-to-image", { blocked, phone: true });
  });

  it("image-to-image: an image and a prompt in, the new image out", async () => {
    await openWidget(page, `${server.url}/playground/lllyasviel/sd-controlnet-canny`, "image-to-image");
    await upload("sketch.png", PHOTO);
    await page.locator("textarea[name=prompt]").fill("a watercolour");
    await runWidget(page);
    await expect.poll(() => page.locator("[data-media-output=image] img").evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(32);
    expect(await page.locator("[data-media-download]").getAttribute("download")).toBe("transformed-sketch-png.png");
    await auditWidget(page, "image-to-image", { blocked, phone: true });
  });

  it("text-to-video: a video player with the generated clip, downloadable", async () => {
    await openWidget(page, `${server.url}/playground/Lightricks/LTX-Video`, "text-to-video");
    await page.locator("textarea[name=inputs]").fill("A cat surfing a wave");
    await runWidget(page);
    const video = page.locator("[data-media-output=video] video");
    expect(await video.getAttribute("src")).toMatch(/^blob:/);
    expect(await page.locator("[data-media-download]").getAttribute("download")).toBe("generated-video-a-cat-surfing-a-wave.mp4");
    await auditWidget(page, "text-to-video", { blocked, phone: true });
  });
});

describe("vision widgets on the model page", () => {
  it("the image model's page gets its widget in the demo slot, loaded after the page, within the JavaScript budget", async () => {
    const model = "google/vit-base-patch16-224";
    const scripts = new Map<string, Buffer>();
    page.on("response", async (res) => {
      if (res.request().resourceType() === "script") scripts.set(new URL(res.url()).pathname, await res.body().catch(() => Buffer.alloc(0)));
    });
    const html = await (await fetch(`${server.url}/${model}`)).text();
    const initial = new Set([...html.matchAll(/<(?:link rel="modulepreload" href|script type="module" src)="([^"]+)"/g)].map((m) => m[1] ?? ""));
    await page.goto(`${server.url}/${model}`);
    await page.waitForSelector("#demo [data-task-widget=image-classification]");
    await page.waitForLoadState("networkidle");
    expect(await page.locator("#demo h2").innerText()).toBe("Try it: Image Classification");
    const gzip = (paths: string[]) => paths.reduce((n, p) => n + gzipSync(scripts.get(p) ?? Buffer.alloc(0)).length, 0);
    const initialJs = gzip([...scripts.keys()].filter((p) => initial.has(p)));
    const lazyPaths = [...scripts.keys()].filter((p) => !initial.has(p));
    expect(initialJs, `model page initial JS, gzip: ${initialJs} bytes`).toBeLessThanOrEqual(150 * 1024);
    expect(lazyPaths.some((p) => /image-classification/.test(p)), lazyPaths.join(", ")).toBe(true);
    console.log(`image model page JS (gzip): initial ${initialJs} B; loaded later ${gzip(lazyPaths)} B in ${lazyPaths.length} chunks`);
    await page.locator("#demo [data-image-input] input[type=file]").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: PHOTO });
    await page.locator("#demo [data-image-name]").waitFor();
    await runWidget(page);
    expect(await page.locator("#demo [data-bar]").count()).toBeGreaterThan(1);
    await page.locator("#demo").screenshot({ path: screenshot("task-widget-vision-model-page.png") });
  });
});

/** The guide's file for this task on the local asset host. */
const assetUrl = (task: string, filename: string) => `${assets.base}/${task}/${filename}`;
const mediaOut = (task: (typeof WIDGET_FAMILIES.vision)[number]) => assetUrl(task, demoEntry(task, "outputs", "img").filename);

/** How each vision task's example output must be drawn: by the task's own output component, with the guide's values. */
const EXAMPLE_CHECKS: Record<(typeof WIDGET_FAMILIES.vision)[number], (output: Locator, inputs: Locator) => Promise<void>> = {
  "image-classification": async (output, inputs) => {
    expect(await barLabels(output)).toEqual(chartByScore("image-classification").map((d) => d.label));
    await expectExampleMedia(inputs, "image", assetUrl("image-classification", demoEntry("image-classification", "inputs", "img").filename));
  },
  "zero-shot-image-classification": async (output, inputs) => {
    expect(await barLabels(output)).toEqual(chartByScore("zero-shot-image-classification").map((d) => d.label));
    expect(await inputs.innerText()).toContain(demoEntry("zero-shot-image-classification", "inputs", "text").content);
  },
  // The guide's detection, segmentation and generated outputs are pictures (boxes and masks drawn
  // in), not the boxes or masks a run returns: shown as the pictures they are.
  "object-detection": async (output) => expectExampleMedia(output, "image", mediaOut("object-detection")),
  "image-segmentation": async (output) => expectExampleMedia(output, "image", mediaOut("image-segmentation")),
  "image-to-image": async (output, inputs) => {
    await expectExampleMedia(output, "image", mediaOut("image-to-image"));
    await expectExampleMedia(inputs, "image", assetUrl("image-to-image", demoEntry("image-to-image", "inputs", "img").filename));
  },
  "text-to-image": async (output) => expectExampleMedia(output, "image", mediaOut("text-to-image")),
  // The guide's "video" is an animated GIF, which the widget shows as an image, as it does a GIF answer.
  "text-to-video": async (output) => expectExampleMedia(output, "image", mediaOut("text-to-video")),
  "image-to-text": async (output) => {
    expect(await output.locator("[data-generated-text]").innerText()).toBe(demoEntry("image-to-text", "outputs", "text").content);
  },
  "visual-question-answering": async (output) => {
    const [best, ...rest] = chartByScore("visual-question-answering");
    expect(await output.locator("[data-vision-answer]").innerText()).toBe(best?.label);
    expect(await output.innerText()).toContain(`score ${percent(best?.score ?? -1)}`);
    expect(await barLabels(output)).toEqual([best, ...rest].map((d) => d?.label));
  },
  "document-question-answering": async (output) => {
    expect(await output.locator("[data-vision-answer]").innerText()).toBe(demoEntry("document-question-answering", "outputs", "text").content);
    // The guide gives no score, so none is shown.
    expect(await output.innerText()).not.toContain("score");
  },
};

describe("the task guide's example instead of a live result", () => {
  it.each(WIDGET_FAMILIES.vision.map((task) => [task] as const))("%s: nothing serves the model, the guide's example drawn as a run would be", async (task) => {
    await openWidget(page, `${server.url}/playground/${unservedModelId(task)}`, task);
    const output = await expectExampleNotLive(page);
    expect(await page.locator("[data-widget-example]").innerText()).toContain("No inference provider or configured endpoint serves this model");
    await EXAMPLE_CHECKS[task](output, page.locator("[data-widget-example] [data-example-side=inputs]"));
    await auditWidget(page, `example-${task}`, { blocked, phone: true });
  });

  it("on the model page, offline: the slot's widget shows the guide's example, its image named when it cannot load", async () => {
    await page.goto(`${server.url}/google/vit-base-patch16-224`);
    await page.waitForSelector("#demo [data-task-widget=image-classification] button[type=submit]");
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    const output = await expectExampleNotLive(page, { scope: page.locator("#demo"), offline: true });
    expect(await barLabels(output)).toEqual(chartByScore("image-classification").map((d) => d.label));
    const input = page.locator("#demo [data-example-side=inputs] [data-example-media=image]");
    await expect.poll(() => input.evaluate((el) => el.tagName)).toBe("P");
    expect(await input.innerText()).toContain(demoEntry("image-classification", "inputs", "img").filename);
    expect(await page.locator("#demo [data-example-side=inputs] img").count()).toBe(0);
    await auditWidget(page, "example-model-page-image-classification", { blocked, phone: true });
    await context.setOffline(false);
  });
});

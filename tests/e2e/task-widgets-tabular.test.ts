/**
 * Tabular task widgets in Chromium against the real server and the provider SIMULATOR. The bundled
 * catalogue has no tabular model, so they are imported with the real `modelyard import`: two
 * served by hf-inference (with the Hub's structured_data widget rows) and one per task nothing
 * serves. Edit the table, run, check a prediction per row and the request; the task guide's
 * example otherwise, drawn as a run's predictions and compared with @huggingface/tasks (also
 * offline on the model page). Axe light and dark, screenshots.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import { allowOnlyLoopback, launchBrowser, waitForHydration } from "#tests/e2e/support/browser.ts";
import { auditWidget } from "#tests/e2e/support/widget-audit.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";
import { demoEntry, expectExampleNotLive, importUnservedModels, unservedModelId } from "#tests/e2e/support/task-examples.ts";
import { WIDGET_FAMILIES } from "#app/demos/widget-tasks.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";


const served = (id: string, task: string, structured: Record<string, string[]>) => ({
  id,
  pipeline_tag: task,
  tags: [task],
  widgetData: [{ structured_data: structured }],
  inferenceProviderMapping: { "hf-inference": { providerId: id, task, status: "live" } },
});
const MODELS = [
  served("modelyard-e2e/wine-quality", "tabular-classification", { fixed_acidity: ["7.4", "7.8", "11.2"], alcohol: ["9.4", "9.8", "9.8"] }),
  served("modelyard-e2e/fish-weight", "tabular-regression", { Height: ["11.52", "12.48"], Width: ["4.02", "4.3056"] }),
];

let sim: ProviderSimulator;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let blocked: string[];
let dir: string;

beforeAll(async () => {
  sim = await startProviderSimulator();
  server = await startTestServer({ env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, MODELYARD_ACCESS: "open", HF_TOKEN: "hf_e2eServerKey0000000000", MODELYARD_INFERENCE_RATE_LIMIT: "1000" } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-tabular-"));
  fs.writeFileSync(path.join(dir, "tabular.jsonl"), MODELS.map((m) => JSON.stringify(m)).join("\n") + "\n");
  await importIntoServer(server, path.join(dir, "tabular.jsonl"));
  await importUnservedModels(server, WIDGET_FAMILIES.tabular);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sim?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  sim.reset();
  for (const m of MODELS) if ("inferenceProviderMapping" in m) sim.addHubModel({ id: m.id, pipeline_tag: m.pipeline_tag, tags: [], inferenceProviderMapping: { "hf-inference": { status: "live", providerId: m.id, task: m.pipeline_tag } } });
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  blocked = await allowOnlyLoopback(context);
  page = await context.newPage();
});

async function openWidget(url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  await page.waitForSelector("[data-task-widget] button[type=submit]");
  await page.waitForLoadState("networkidle");
  // The inputs start with the task's example: typing before React owns them can land in front of it.
  await waitForHydration(page, "[data-task-widget] button[type=submit]");
}

async function runAndWait(): Promise<void> {
  await page.locator("[data-task-widget]").getByRole("button", { name: "Run" }).click();
  await page.locator("[data-widget-result], [data-widget-error]").first().waitFor({ timeout: 20_000 });
  const error = page.locator("[data-widget-error]");
  expect(await error.count(), (await error.count()) > 0 ? await error.innerText() : "").toBe(0);
  expect(await page.locator("[data-widget-metrics]").innerText()).toMatch(/^(\d+ ms|[\d.]+ s) · [\d.]+ (B|KB) · via hf-inference$/);
}


const lastBody = () => [...sim.requests].reverse().find((r) => r.service === "router")?.bodyJson;

describe("tabular task widgets on the playground", () => {
  it("tabular-classification: the model's rows, a class per row", async () => {
    await openWidget(`${server.url}/playground/modelyard-e2e/wine-quality`);
    expect(await page.getByRole("textbox", { name: "Column 1 name" }).inputValue()).toBe("fixed_acidity");
    expect(await page.getByRole("textbox", { name: "Row 3, alcohol" }).inputValue()).toBe("9.8");
    await runAndWait();
    const predictions = await page.locator("[data-tabular-predictions] [data-prediction]").allInnerTexts();
    expect(predictions).toHaveLength(3);
    for (const p of predictions) expect(p).toMatch(/^[0-2]$/);
    expect(lastBody()).toEqual({ inputs: { data: { fixed_acidity: ["7.4", "7.8", "11.2"], alcohol: ["9.4", "9.8", "9.8"] } } });
    await auditWidget(page, "tabular-classification", { blocked });
  });

  it("tabular-regression: an added and edited row gets its own number", async () => {
    await openWidget(`${server.url}/playground/modelyard-e2e/fish-weight`);
    await page.getByRole("button", { name: "Add row" }).click();
    await page.getByRole("textbox", { name: "Row 3, Height" }).fill("10");
    await page.getByRole("textbox", { name: "Row 3, Width" }).fill("3.5");
    await runAndWait();
    const rows = await page.locator("[data-tabular-predictions] tbody tr").allInnerTexts();
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatch(/^10\s+3\.5\s+\d+(\.\d+)?$/);
    expect(lastBody()).toEqual({ inputs: { data: { Height: ["11.52", "12.48", "10"], Width: ["4.02", "4.3056", "3.5"] } } });
    await auditWidget(page, "tabular-regression", { blocked });
  });

});

/**
 * The guide's example as a run's predictions: its input rows (column names trimmed, as the widget
 * sends them), each with the guide's value under the guide's column name.
 */
async function checkTabularExample(task: (typeof WIDGET_FAMILIES.tabular)[number], output: Locator): Promise<void> {
  const input = demoEntry(task, "inputs", "tabular").table;
  const [[column = ""] = [], ...values] = demoEntry(task, "outputs", "tabular").table;
  const table = output.locator("[data-tabular-predictions]");
  expect(await table.locator("thead th").allInnerTexts()).toEqual([...(input[0] ?? []).map((h) => h.trim()), column]);
  expect(await table.locator("[data-prediction]").allInnerTexts()).toEqual(values.map((v) => v[0]));
  expect(await table.locator("tbody tr").first().locator("td").allInnerTexts()).toEqual([...(input[1] ?? []), values[0]?.[0]]);
}

describe("the task guide's example instead of a live result", () => {
  it.each(WIDGET_FAMILIES.tabular.map((task) => [task] as const))("%s: nothing serves the model, the guide's rows and values drawn as predictions", async (task) => {
    await openWidget(`${server.url}/playground/${unservedModelId(task)}`);
    const output = await expectExampleNotLive(page);
    expect(await page.locator("[data-widget-example]").innerText()).toContain("No inference provider or configured endpoint serves this model");
    await checkTabularExample(task, output);
    await auditWidget(page, `example-${task}`, { blocked });
  });

  it("on the model page, offline: the slot's widget shows the guide's example", async () => {
    await page.goto(`${server.url}/modelyard-e2e/wine-quality`);
    await page.waitForSelector("#demo [data-task-widget=tabular-classification] button[type=submit]");
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    await checkTabularExample("tabular-classification", await expectExampleNotLive(page, { scope: page.locator("#demo"), offline: true }));
    await auditWidget(page, "example-model-page-tabular-classification", { blocked });
    await context.setOffline(false);
  });
});

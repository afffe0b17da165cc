/**
 * Tabular task widgets in Chromium against the real server and the provider SIMULATOR. The bundled
 * catalogue has no tabular model, so they are imported with the real `modelyard import`: two
 * served by hf-inference (with the Hub's structured_data widget rows) and one per task nothing
 * serves. Edit the table, run, check a prediction per row and the request; the task guide's
 * example otherwise, drawn as a run's predictions and compared with @huggingface/tasks (also
 * offline on the model page). Axe light and dark, screenshots.
 */
import fs from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import { hfInferenceHubModels, openWidget, runWidget, setupBrowser, setupOfflinePage, setupServer, setupSimulator, simulatedInference } from "#tests/e2e/support/journey.ts";
import { auditWidget } from "#tests/e2e/support/widget-audit.ts";
import { demoEntry, expectExampleNotLive, importUnservedModels, unservedModelId } from "#tests/e2e/support/task-examples.ts";
import { WIDGET_FAMILIES } from "#app/tasks/task-records.ts";
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

const sim = setupSimulator({ onReset: hfInferenceHubModels(MODELS.map((m) => [m.id, m.pipeline_tag] as const)) });
const server = setupServer(
  () => ({ env: simulatedInference(sim, "hf_e2eServerKey0000000000") }),
  async (s) => {
    // The server's own temporary folder, removed when it stops.
    const file = path.join(s.dir, "tabular.jsonl");
    fs.writeFileSync(file, MODELS.map((m) => JSON.stringify(m)).join("\n") + "\n");
    await importIntoServer(s, file);
    await importUnservedModels(s, WIDGET_FAMILIES.tabular);
  },
);
const browser = setupBrowser();
const { page, context, blocked } = setupOfflinePage(browser, { viewport: { width: 1100, height: 900 } });

const lastBody = () => [...sim.requests].reverse().find((r) => r.service === "router")?.bodyJson;

describe("tabular task widgets on the playground", () => {
  it("tabular-classification: the model's rows, a class per row", async () => {
    await openWidget(page, `${server.url}/playground/modelyard-e2e/wine-quality`);
    expect(await page.getByRole("textbox", { name: "Column 1 name" }).inputValue()).toBe("fixed_acidity");
    expect(await page.getByRole("textbox", { name: "Row 3, alcohol" }).inputValue()).toBe("9.8");
    await runWidget(page);
    const predictions = await page.locator("[data-tabular-predictions] [data-prediction]").allInnerTexts();
    expect(predictions).toHaveLength(3);
    for (const p of predictions) expect(p).toMatch(/^[0-2]$/);
    expect(lastBody()).toEqual({ inputs: { data: { fixed_acidity: ["7.4", "7.8", "11.2"], alcohol: ["9.4", "9.8", "9.8"] } } });
    await auditWidget(page, "tabular-classification", { blocked });
  });

  it("tabular-regression: an added and edited row gets its own number", async () => {
    await openWidget(page, `${server.url}/playground/modelyard-e2e/fish-weight`);
    await page.getByRole("button", { name: "Add row" }).click();
    await page.getByRole("textbox", { name: "Row 3, Height" }).fill("10");
    await page.getByRole("textbox", { name: "Row 3, Width" }).fill("3.5");
    await runWidget(page);
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
    await openWidget(page, `${server.url}/playground/${unservedModelId(task)}`);
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

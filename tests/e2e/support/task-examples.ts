/**
 * For the journeys that check a widget's task-guide example: the guide's demo entries read from
 * @huggingface/tasks at test time (so a test compares what is drawn with the package, never a
 * copied value), models that nothing serves, and what every example must show and not show.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TASKS_DATA, type PipelineType, type TaskDemoEntry } from "@huggingface/tasks";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { importIntoServer } from "#tests/e2e/model-page-support.ts";
import type { TestServer } from "#tests/e2e/support/server.ts";

export const EXAMPLE_LABEL = "Example from the task guide, not produced by this model";

/** The `index`-th entry of `type` on one side of the task's demo; throws when the package has none, so a changed demo fails loudly. */
export function demoEntry<T extends TaskDemoEntry["type"]>(task: PipelineType, side: "inputs" | "outputs", type: T, index = 0): Extract<TaskDemoEntry, { type: T }> {
  const found = (TASKS_DATA[task]?.demo[side] ?? []).filter((e): e is Extract<TaskDemoEntry, { type: T }> => e.type === type)[index];
  if (!found) throw new Error(`@huggingface/tasks has no ${type} entry #${index} in ${task}'s demo ${side}`);
  return found;
}

/** The id of the model of `task` that unservedModels() imports. */
export const unservedModelId = (task: string): string => `modelyard-e2e/unserved-${task}`;

/** Imports a model per task with no provider mapping (through `modelyard import`), so its widget can only show the example. */
export async function importUnservedModels(server: TestServer, tasks: readonly string[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-unserved-"));
  try {
    const file = path.join(dir, "unserved.jsonl");
    fs.writeFileSync(file, tasks.map((task) => JSON.stringify({ id: unservedModelId(task), pipeline_tag: task, tags: [task] })).join("\n") + "\n");
    await importIntoServer(server, file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The widget shows the guide's example, labelled in words, and nothing that looks like a live
 * run: no result, no time-and-size footer and no request code, and Run disabled (except offline,
 * where it stays so the visitor can try again once back). Returns the example's output side, for
 * the task's own checks.
 */
export async function expectExampleNotLive(page: Page, opts: { scope?: Locator; offline?: boolean } = {}): Promise<Locator> {
  const scope = opts.scope ?? page.locator("[data-task-widget]");
  const example = scope.locator("[data-widget-example]");
  await example.waitFor();
  expect(await example.getByText(EXAMPLE_LABEL, { exact: true }).isVisible()).toBe(true);
  expect(await example.getAttribute("aria-label")).toBe(EXAMPLE_LABEL);
  if (!opts.offline) expect(await scope.getByRole("button", { name: "Run" }).isDisabled()).toBe(true);
  expect(await page.locator("[data-widget-result]").count()).toBe(0);
  expect(await page.locator("[data-widget-metrics]").count()).toBe(0);
  expect(await page.locator("[data-widget-request-code]").count()).toBe(0);
  return example.locator("[data-example-side=outputs]");
}

/** Label-score bars as drawn, top to bottom, and the guide's chart as a run would order it (highest first). */
export async function barLabels(scope: Locator): Promise<string[]> {
  return scope.locator("[data-bar]").evaluateAll((els) => els.map((e) => e.getAttribute("data-bar") ?? ""));
}
export function chartByScore(task: PipelineType): Array<{ label: string; score: number }> {
  return [...demoEntry(task, "outputs", "chart").data].sort((a, b) => b.score - a.score);
}

/**
 * The guide's image or recording drawn from the asset host (`url`): the element points there,
 * really loads (an image gets its width, a recording its duration), and is captioned with its
 * file name.
 */
export async function expectExampleMedia(side: Locator, kind: "image" | "audio", url: string, index = 0): Promise<void> {
  const figure = side.locator(`figure[data-example-media=${kind}]`).nth(index);
  const filename = decodeURIComponent(url.split("/").at(-1) ?? "");
  expect(await figure.locator("figcaption").innerText()).toBe(filename);
  if (kind === "image") {
    const img = figure.locator("img");
    expect(await img.getAttribute("src")).toBe(url);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : -1))).toBeGreaterThan(0);
  } else {
    const audio = figure.locator("audio");
    expect(await audio.getAttribute("src")).toBe(url);
    // Loaded again here, so the poll below waits on a load it asked for (the page may have aborted its own).
    await audio.evaluate((el: HTMLAudioElement) => el.load());
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration || 0)).toBeGreaterThan(0);
  }
}

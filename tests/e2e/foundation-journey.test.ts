import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupServer } from "#tests/e2e/support/journey.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";


describe("first journey: home → models → a model page", () => {
  // An empty database, as on a new machine: the other journeys start from a filled copy.
  const server = setupServer({ firstStart: true });
  const browser = setupBrowser();

  it("loads the bundled catalogue on first start and says so", () => {
    expect(server.output()).toMatch(/loading the bundled catalogue/);
    expect(server.output()).toMatch(/Modelyard is running at http:\/\/localhost:\d+ — 5,240 models in the catalogue/);
  });

  it("walks from the home page to a model page", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const blocked = await allowOnlyLoopback(context);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto(server.url + "/");
    await expect(page.title()).resolves.toMatch(/Modelyard/);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toMatch(/machine-learning models/);
    await page.screenshot({ path: screenshot("journey-1-home.png") });

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Models" }).click();
    await page.waitForURL(/\/models/);
    // The URL changes as the client-side navigation commits; the new view renders right after.
    await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toMatch(/Models/);
    const firstRow = page.getByRole("region", { name: "Results" }).locator("li a[href^='/']").first();
    const id = decodeURIComponent((await firstRow.getAttribute("href"))!.slice(1));
    expect(id).toMatch(/.+\/.+|^[\w.-]+$/);
    await page.screenshot({ path: screenshot("journey-2-models.png") });

    await firstRow.click();
    await page.waitForURL((u) => decodeURIComponent(u.pathname) === `/${id}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent()).toContain(id.split("/").pop());
    const body = (await page.locator("main").textContent()) ?? "";
    expect(body).toMatch(/downloads \(30 days, snapshot of 2024-07-11\)|snapshot/);
    await page.screenshot({ path: screenshot("journey-3-model.png"), fullPage: false });

    expect(errors).toEqual([]);
    expect(blocked).toEqual([]);
    await context.close();
  });

  it("searches from the header and lands on the filtered listing", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + "/");
    await page.getByRole("combobox", { name: "Search models" }).fill("bert");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/models\?search=bert/);
    await page.close();
  });

  it("switches to the dark theme and remembers it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url + "/tasks");
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith("/theme") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Dark" }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain("dark");
    await saved;
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.className)).toContain("dark");
    await page.screenshot({ path: screenshot("journey-4-tasks-dark.png") });
    await context.close();
  });

  it("shows the 404 page for unknown pages and models, and JSON for unknown API paths", async () => {
    const page = await browser.newPage();
    const res = await page.goto(server.url + "/no-such-org/no-such-model");
    expect(res!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toMatch(/not found/i);
    const api = await fetch(server.url + "/api/nothing-here");
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { message: string } }).error.message).toMatch(/No API endpoint/);
    await page.close();
  });

  it("renders pages on the server without JavaScript", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(server.url + "/models");
    expect(await page.locator("main li").count()).toBeGreaterThan(5);
    await context.close();
  });
});

/**
 * /compare journeys in Chromium against the real server with the provider SIMULATOR upstream:
 * three chat columns on different providers with one failing mid-stream (its error in place, the
 * others finishing), an image-classification comparison (one file to every column, charts side by
 * side, an unservable column showing its reason), a session saved and opened again without re-running, and hostile session
 * files refused or shown inert. Axe on the page; screenshots (light/dark, phone/desktop) go to
 * test-results/screenshots/.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupOfflinePage, setupServer, setupSimulator, simulatedInference } from "#tests/e2e/support/journey.ts";
import { runAxe } from "#tests/e2e/support/page-audit.ts";
import { makePng } from "#tests/simulators/media.ts";

const SERVER_KEY = "hf_e2eServerKey0000000000";
const VISITOR_TOKEN = "hf_e2eVisitorCompareToken99";
const COLUMNS = ["meta-llama/Meta-Llama-3-8B-Instruct@together", "meta-llama/Meta-Llama-3-8B-Instruct@fireworks-ai", "meta-llama/Llama-3.3-70B-Instruct@groq"];
const COMPARE_URL = `/compare?task=text-generation&${COLUMNS.map((c) => `model=${c}`).join("&")}`;

const sim = setupSimulator({ options: { tokenDelayMs: 20 } });
const server = setupServer(() => ({ env: simulatedInference(sim, SERVER_KEY) }));
const browser = setupBrowser();
const { page, blocked } = setupOfflinePage(browser, { viewport: { width: 1400, height: 1000 }, acceptDownloads: true });

const column = (spec: string) => page.locator(`[data-column="${spec}"]`);

async function openCompare(): Promise<void> {
  await page.goto(`${server.url}${COMPARE_URL}`);
  await page.waitForSelector("[data-compare-columns]");
  // Hydrated once typing enables Send.
  await page.locator("textarea[name=message]").fill("warm-up");
  await expect.poll(() => page.getByRole("button", { name: "Send to all", exact: true }).isEnabled(), { timeout: 15_000 }).toBe(true);
  await page.locator("textarea[name=message]").fill("");
}

async function sendToAll(text: string): Promise<void> {
  await page.locator("textarea[name=message]").fill(text);
  await page.getByRole("button", { name: "Send to all", exact: true }).click();
}

async function shoot(name: string): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: screenshot(`${name}-desktop-${scheme}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: screenshot(`${name}-phone-${scheme}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.emulateMedia({ colorScheme: "light" });
}

describe("compare", () => {
  it("runs three chat columns on three providers; one fails mid-stream in place and the others finish", async () => {
    sim.scriptFault({ provider: "fireworks-ai" }, { kind: "mid-stream-error", afterChunks: 2, message: "upstream worker crashed" });
    await openCompare();
    expect(await page.locator("[data-column]").count()).toBe(3);
    await sendToAll("Compare **this** please");

    for (const ok of [COLUMNS[0]!, COLUMNS[2]!]) {
      await column(ok).locator('[data-turn="assistant"][data-status="done"] [data-compare-metrics]').waitFor({ timeout: 30_000 });
      expect(await column(ok).locator('[data-turn="assistant"]').innerText()).toContain('you said "Compare this please"');
      expect(await column(ok).locator("[data-compare-metrics]").innerText()).toMatch(/first token \d+ ms · [\d.]+ tokens\/s · total [\d.]+ m?s · \d+ prompt · \d+ completion tokens/);
    }
    const failed = column(COLUMNS[1]!);
    await failed.locator('[data-turn="assistant"][data-status="error"]').waitFor({ timeout: 30_000 });
    expect(await failed.locator("[data-compare-error]").innerText()).toContain("upstream worker crashed");
    // The part that streamed before the failure stays, the others were not disturbed.
    expect((await failed.locator("[data-chat-markdown]").innerText()).length).toBeGreaterThan(0);

    // Each column was its own gateway request, all three upstream, concurrently.
    const upstream = sim.requests.filter((r) => r.path.includes("chat/completions"));
    expect(upstream.map((r) => r.provider).sort()).toEqual(["fireworks-ai", "groq", "together"]);
    expect(upstream.every((r) => (r.bodyJson as { stream?: boolean }).stream === true)).toBe(true);

    const summary = page.locator("[data-compare-summary]");
    expect(await summary.locator('[data-summary="firstToken"] dd').innerText()).toMatch(/on (together|groq)$/);
    expect(await summary.innerText()).toContain("No provider reported a price, so no column is marked cheapest.");

    // Regenerate the failed column alone: it now finishes.
    await failed.getByRole("button", { name: "Regenerate this column" }).click();
    await failed.locator('[data-turn="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-compare-error]").count()).toBe(0);

    // A per-column override goes to that column only.
    await column(COLUMNS[2]!).locator("[data-column-overrides] summary").click();
    await column(COLUMNS[2]!).locator("input[name=temperature]").fill("0.3");
    sim.reset();
    await page.getByRole("button", { name: "Regenerate all" }).click();
    await expect.poll(() => page.locator('[data-turn="assistant"][data-status="done"]').count(), { timeout: 30_000 }).toBe(3);
    const temps: Record<string, number | undefined> = {};
    for (const r of sim.requests.filter((x) => x.path.includes("chat/completions"))) temps[r.provider ?? "?"] = (r.bodyJson as { temperature?: number }).temperature;
    expect(temps).toEqual({ together: 1, "fireworks-ai": 1, groq: 0.3 });

    expect(await runAxe(page)).toEqual([]);
    expect(blocked).toEqual([]);
    await shoot("compare-chat");
  });

  it("compares image classification: one image to every column, label charts side by side", async () => {
    sim.addHubModel({ id: "Falconsai/nsfw_image_detection", pipeline_tag: "image-classification", tags: [], inferenceProviderMapping: { "hf-inference": { status: "live", providerId: "Falconsai/nsfw_image_detection", task: "image-classification" } } });
    const cols = ["google/vit-base-patch16-224@hf-inference", "Falconsai/nsfw_image_detection@hf-inference", "google/vit-base-patch16-224@together"];
    await page.goto(`${server.url}/compare?task=image-classification&${cols.map((c) => `model=${c}`).join("&")}`);
    await page.waitForSelector("[data-compare-columns]");
    // A provider that does not serve the task says so in its column; the others can run.
    expect(await column(cols[2]!).locator("[data-column-problem]").innerText()).toContain("together does not serve google/vit-base-patch16-224 for image classification here. Available: hf-inference.");
    const image = path.join(server.dir, "cat.png");
    fs.writeFileSync(image, makePng("compare-cat", 32));
    await expect.poll(async () => {
      await page.locator("input[type=file][name=inputs]").setInputFiles(image);
      return page.getByRole("button", { name: "Run all" }).isEnabled();
    }, { timeout: 15_000 }).toBe(true);
    // Before any run, a column's own button does not speak of running it again.
    expect(await column(cols[0]!).getByRole("button", { name: "Run this column only" }).count()).toBe(1);
    await page.getByRole("button", { name: "Run all" }).click();
    for (const c of cols.slice(0, 2)) {
      await column(c).locator("[data-compare-result] [data-label-scores]").waitFor({ timeout: 30_000 });
      expect(await column(c).getByRole("button", { name: "Run this column again" }).count()).toBe(1);
      expect(await column(c).locator("[data-compare-result] [data-bar]").count()).toBeGreaterThan(0);
      expect(await column(c).locator("[data-compare-metrics]").innerText()).toMatch(/^total [\d.]+ m?s$/);
    }
    const sent = sim.requests.filter((r) => r.path.includes("image-classification") || r.path.includes("vit-base") || r.path.includes("nsfw"));
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(await page.locator("[data-compare-summary] [data-summary=total] dd").count()).toBe(1);
    expect(await runAxe(page)).toEqual([]);
    await shoot("compare-image-classification");
  });

  it("adds a column by searching the catalogue, offering only models and providers that can run the task, and keeps what the other columns hold", async () => {
    await page.goto(`${server.url}/compare?task=text-generation&model=${COLUMNS[0]}`);
    await page.waitForFunction(() => document.querySelector("[data-add-column] input[name=q]") !== null);
    await page.locator("textarea[name=message]").fill("warm-up");
    await expect.poll(() => page.getByRole("button", { name: "Send to all", exact: true }).isEnabled(), { timeout: 15_000 }).toBe(true);
    await sendToAll("keep this conversation");
    await column(COLUMNS[0]!).locator('[data-turn="assistant"][data-status="done"]').waitFor({ timeout: 30_000 });
    const conversation = await column(COLUMNS[0]!).locator('[role="log"]').innerText();
    await expect.poll(async () => {
      await page.locator("[data-add-column] input[name=q]").fill("Llama-3.3-70B-Instruct");
      await page.locator("[data-add-column]").getByRole("button", { name: "Search" }).click();
      return page.locator("[data-candidates] li").count();
    }, { timeout: 15_000 }).toBeGreaterThan(0);
    const res = await fetch(`${server.url}/api/compare/candidates?task=text-generation&q=Llama-3.3-70B-Instruct`);
    const { candidates } = (await res.json()) as { candidates: Array<{ modelId: string; choices: Array<{ route: string }> }> };
    const llama = candidates.find((c) => c.modelId === "meta-llama/Llama-3.3-70B-Instruct");
    expect(llama?.choices.map((c) => c.route)).toContain("groq");
    // hf-inference serves it for chat too; nothing offered is a provider 3.13.1 cannot call for chat.
    expect(llama?.choices.every((c) => !["fal-ai", "replicate", "black-forest-labs"].includes(c.route))).toBe(true);
    await page.getByRole("button", { name: "Add meta-llama/Llama-3.3-70B-Instruct on groq" }).click();
    await page.waitForURL((u) => u.search.includes("model=meta-llama/Llama-3.3-70B-Instruct@groq"));
    await page.waitForSelector('[data-column="meta-llama/Llama-3.3-70B-Instruct@groq"]');
    expect(await page.locator("[data-column]").count()).toBe(2);
    // No data is lost: the first column's conversation is still there, the new one starts empty,
    // and nothing was sent upstream again.
    expect(await column(COLUMNS[0]!).locator('[role="log"]').innerText()).toBe(conversation);
    expect(await column("meta-llama/Llama-3.3-70B-Instruct@groq").locator('[data-turn]').count()).toBe(0);
    expect(sim.requests.filter((r) => r.path.includes("chat/completions"))).toHaveLength(1);
    // Removing a column keeps the rest too.
    await page.getByRole("button", { name: "Remove meta-llama/Llama-3.3-70B-Instruct on groq" }).click();
    await page.waitForURL((u) => !u.search.includes("Llama-3.3-70B-Instruct"));
    await expect.poll(() => page.locator("[data-column]").count()).toBe(1);
    expect(await column(COLUMNS[0]!).locator('[role="log"]').innerText()).toBe(conversation);
    expect((await fetch(`${server.url}/api/compare/candidates?task=nope`)).status).toBe(400);
  });

  it("Stop stops every column", async () => {
    sim.scriptFault({ path: "chat/completions" }, { kind: "slow", tokenDelayMs: 300, times: "forever" });
    await openCompare();
    await sendToAll("go slowly");
    await expect.poll(() => page.locator('[data-turn="assistant"][data-status="streaming"]').count(), { timeout: 15_000 }).toBe(3);
    await page.getByRole("button", { name: "Stop all" }).click();
    await expect.poll(() => page.locator('[data-turn="assistant"][data-status="stopped"]').count(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => server.output().split(`"outcome":"cancelled"`).length - 1, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  });

  it("saves a session (no token in it) and opens it again without re-running", async () => {
    await page.goto(`${server.url}/settings`);
    await page.evaluate((t) => localStorage.setItem("modelyard.hfToken", t), VISITOR_TOKEN);
    await openCompare();
    // A column's own parameters reach its snippet in the file.
    await column(COLUMNS[2]!).locator("[data-column-overrides] summary").click();
    await column(COLUMNS[2]!).locator("input[name=temperature]").fill("0.35");
    await sendToAll(`Remember ${VISITOR_TOKEN}`);
    await expect.poll(() => page.locator('[data-turn="assistant"][data-status="done"]').count(), { timeout: 30_000 }).toBe(3);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Save session" }).click()]);
    const file = path.join(server.dir, "session.json");
    await download.saveAs(file);
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain(VISITOR_TOKEN);
    const saved = JSON.parse(text) as { kind: string; schemaVersion: number; task: string; columns: Array<{ modelId: string; route: string; snippet: { code: string } | null; turns: Array<{ role: string; metrics: unknown }> }> };
    expect(saved).toMatchObject({ kind: "modelyard-session", schemaVersion: 1, task: "text-generation" });
    expect(saved.columns.map((c) => `${c.modelId}@${c.route}`)).toEqual(COLUMNS);
    expect(saved.columns[0]?.snippet?.code).toContain("chatCompletionStream");
    expect(saved.columns[2]?.snippet?.code).toMatch(/temperature: 0\.35\b/);
    expect(saved.columns[0]?.snippet?.code).not.toContain("0.35");
    expect(saved.columns[0]?.turns.map((t) => t.role)).toEqual(["user", "assistant"]);
    expect(saved.columns[0]?.turns[1]?.metrics).toHaveProperty("totalMs");

    // A fresh page opens it: shown as saved, and nothing goes upstream.
    await page.goto(`${server.url}/compare`);
    await page.waitForSelector("[data-session-bar]");
    await page.waitForFunction(() => document.querySelector("[data-open-session]") !== null);
    await expect.poll(async () => {
      sim.reset();
      await page.locator("[data-open-session]").setInputFiles(file);
      return page.locator("[data-session-view]").count();
    }, { timeout: 15_000 }).toBe(1);
    expect(await page.locator("[data-session-column]").count()).toBe(3);
    expect(await page.locator("[data-session-column]").first().innerText()).toContain('you said "Remember hf_***"');
    expect(sim.requests.filter((r) => r.path.includes("chat/completions"))).toEqual([]);
    expect(await page.locator("[data-session-view]").getByRole("link", { name: "Run this setup live" }).getAttribute("href")).toBe(COMPARE_URL);
    expect(await runAxe(page)).toEqual([]);
    await shoot("compare-session");
  });

  it("refuses a hostile session file with a clear error, and renders script in strings as text", async () => {
    await page.goto(`${server.url}/compare`);
    await page.waitForFunction(() => document.querySelector("[data-open-session]") !== null);
    const dir = server.dir;
    const wrong = path.join(dir, "wrong.json");
    fs.writeFileSync(wrong, JSON.stringify({ kind: "modelyard-session", schemaVersion: 1, columns: "all of them" }));
    await expect.poll(async () => {
      await page.locator("[data-open-session]").setInputFiles(wrong);
      return page.locator("[data-session-error]").count();
    }, { timeout: 15_000 }).toBe(1);
    expect(await page.locator("[data-session-error]").innerText()).toMatch(/^This is not a valid Modelyard session \(\/schemas\/session-v1\.json\): /);

    const huge = path.join(dir, "huge.json");
    fs.writeFileSync(huge, JSON.stringify({ kind: "modelyard-session", system: "x".repeat(5 * 1024 * 1024) }));
    await page.locator("[data-open-session]").setInputFiles(huge);
    await expect.poll(() => page.locator("[data-session-error]").innerText()).toContain("a session file may be at most 4 MB");

    const script = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;
    const hostile = {
      kind: "modelyard-session",
      schemaVersion: 1,
      modelyardVersion: "0.1.0",
      savedAt: "2025-01-01T00:00:00Z",
      source: "compare",
      task: "text-generation",
      system: script,
      parameters: {},
      input: { text: "", fileName: null },
      columns: [
        {
          modelId: "org/a",
          route: "together",
          parameters: {},
          snippet: { language: "js", client: "huggingface.js", code: script },
          turns: [
            { role: "user", content: script, status: "done", metrics: null, error: null },
            { role: "assistant", content: `${script} [x](javascript:window.__pwned=3)`, status: "error", metrics: null, error: { code: "x", message: script, hint: null } },
          ],
          result: null,
        },
      ],
    };
    const inert = path.join(dir, "inert.json");
    fs.writeFileSync(inert, JSON.stringify(hostile));
    await page.locator("[data-open-session]").setInputFiles(inert);
    await page.waitForSelector("[data-session-view]");
    // When it was saved, to the minute and in UTC, with the file's own value kept machine-readable.
    expect(await page.locator("[data-session-view] [role=status]").innerText()).toContain("saved 2025-01-01 00:00 UTC with Modelyard 0.1.0");
    expect(await page.locator("[data-session-view] time").getAttribute("datetime")).toBe("2025-01-01T00:00:00Z");
    expect(await page.locator("[data-session-view] script, [data-session-view] img, [data-session-view] a[href^='javascript']").count()).toBe(0);
    expect(await page.locator("[data-session-view]").innerText()).toContain("<script>window.__pwned = 1</script>");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});

/**
 * Live details in Chromium against the real server (`modelyard serve`, MODELYARD_LIVE=1) on the
 * bundled catalogue, with the Hub SIMULATOR (tests/simulators, a test tool, not the Hub) as
 * MODELYARD_UPSTREAM_OVERRIDE:
 * - a list row's page fetches its card and files once, shows them, and the next visit asks nothing;
 * - a slow Hub: the page answers before the Hub does and says the details timed out;
 * - a model the Hub lacks: the page says it is not on the Hub and what to do; axe and the CSP stay
 *   clean; screenshots light and dark go to test-results/screenshots/.
 */
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { screenshot, setupBrowser, setupServer, setupSimulator } from "#tests/e2e/support/journey.ts";
import { openDatabase } from "#app/db/client.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { allowOnlyLoopback } from "#tests/e2e/support/browser.ts";
import { describeViolations, readCspViolations, recordCspViolations, runAxe } from "#tests/e2e/support/page-audit.ts";

const FETCHED = "google/gemma-7b";
const SLOW = "bigscience/bloom";
const ABSENT = "openai/whisper-large-v3";
const SLOW_HUB_MS = 8_000;
const CARD = "---\nlicense: other\n---\n# Gemma (live card from the Hub simulator)\n\nFetched on demand.\n";

// The tests count the Hub calls of visits before them, so the simulator is not reset between them.
const sim = setupSimulator({
  keepState: true,
  options: {
    hubModels: [
      {
        id: FETCHED,
        pipeline_tag: "text-generation",
        tags: ["transformers", "safetensors", "gemma", "text-generation"],
        inferenceProviderMapping: {},
        readme: CARD,
        details: {
          sha: "c".repeat(40),
          siblings: [{ rfilename: "config.json", size: 688 }, { rfilename: "model-00001-of-00004.safetensors", size: 4_995_496_656, lfs: { size: 4_995_496_656 } }],
          config: { architectures: ["GemmaForCausalLM"], model_type: "gemma" },
        },
      },
    ],
  },
});
const server = setupServer(() => ({ env: { MODELYARD_LIVE: "1", MODELYARD_UPSTREAM_OVERRIDE: sim.url, MODELYARD_LIVE_DEADLINE_MS: "2000" } }));
const browser = setupBrowser();

const hubCalls = (id: string) => sim.requests.filter((r) => r.path.includes(id)).length;

async function newContext(scheme: "light" | "dark" = "light"): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
  await allowOnlyLoopback(context);
  await recordCspViolations(context);
  return context;
}

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + url, { waitUntil: "load" });
  return page;
}


describe("live details (Hub simulator)", () => {
  it("fetches a list row's card and files once, shows them, and stores them for every later visit", async () => {
    const context = await newContext();
    const page = await open(context, `/${FETCHED}`);
    await expect(page.locator("#model-card").textContent()).resolves.toContain("live card from the Hub simulator");
    expect(await page.locator("[data-live-notice]").count()).toBe(0);
    const asked = hubCalls(FETCHED);
    expect(asked).toBe(2);
    const files = await open(context, `/${FETCHED}?tab=files`);
    await expect(files.locator("body").textContent()).resolves.toContain("model-00001-of-00004.safetensors");
    expect(hubCalls(FETCHED)).toBe(asked);
    const db = openDatabase(server.databaseUrl);
    try {
      expect((await getModelById(db.db, FETCHED))?.cardMarkdown).toBe(CARD);
    } finally {
      await db.close();
    }
    await context.close();
  }, 60_000);

  it("answers before a slow Hub does, saying the details timed out", async () => {
    sim.scriptFault({ path: `/api/models/${SLOW}` }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: SLOW_HUB_MS });
    const context = await newContext();
    const started = Date.now();
    const page = await open(context, `/${SLOW}`);
    expect(Date.now() - started).toBeLessThan(SLOW_HUB_MS);
    const notice = page.locator('[data-live-notice="timeout"]');
    await expect(notice.textContent()).resolves.toContain("timed out");
    await context.close();
  }, 60_000);

  for (const scheme of ["light", "dark"] as const) {
    it(`says a model is not on the Hub and what to do (${scheme}), with axe and the CSP clean`, async () => {
      const context = await newContext(scheme);
      const page = await open(context, `/${ABSENT}`);
      const text = (await page.locator('[data-live-notice="not-found"]').textContent()) ?? "";
      expect(text).toContain("not on the Hub");
      expect(text).toContain("modelyard import");
      await page.screenshot({ path: screenshot(`live-details-not-found-${scheme}.png`) });
      const violations = await runAxe(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      expect(await readCspViolations(page)).toEqual([]);
      await context.close();
    }, 60_000);
  }
});

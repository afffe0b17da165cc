/**
 * The model page with MODELYARD_LIVE=1 against the Hub SIMULATOR (tests/simulators, a test tool,
 * not the Hub) over real sockets, on a real database: the loader stores and shows fetched details,
 * and otherwise answers within the deadline with a notice that says why and what to do.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LiveDetailsNotice } from "#app/model-page/live-details-notice.tsx";
import { setDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { testDialects, type TestDatabase } from "#tests/support/test-databases.ts";
import { importItems } from "#app/import/importer.server.ts";
import { loadModelPage } from "#app/model-page/model-page.server.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const CARD = "# Live card\n\nFetched from the Hub simulator.\n";
const SLOW_HUB_MS = 4_000;

let sim: ProviderSimulator;
const dialects = testDialects();
const ids = (d: string) => ({ ok: `${d}-live/ok`, slow: `${d}-live/slow`, absent: `${d}-live/absent`, down: `${d}-live/down`, bad: `${d}-live/bad` });

beforeAll(async () => {
  const hubModels = dialects.flatMap((d) => {
    const i = ids(d.name);
    const details = { sha: "a".repeat(40), siblings: [{ rfilename: "config.json", size: 10 }], config: { model_type: "llama", architectures: ["LlamaForCausalLM"] } };
    const base = { pipeline_tag: "text-generation", tags: ["transformers", "llama"], inferenceProviderMapping: {}, readme: CARD, details };
    return [
      { ...base, id: i.ok },
      { ...base, id: i.slow },
      { ...base, id: i.down },
      { ...base, id: i.bad, details: { ...details, config: "not an object" } },
    ];
  });
  sim = await startProviderSimulator({ hubModels });
  // getEnv() reads these on first use; nothing in this file has read it yet.
  process.env["MODELYARD_LIVE"] = "1";
  process.env["MODELYARD_LIVE_DEADLINE_MS"] = "1000";
  process.env["MODELYARD_UPSTREAM_OVERRIDE"] = sim.url;
});
afterAll(async () => {
  await sim?.close();
});

for (const dialect of dialects) {
  describe(`model page with live details (${dialect.name}, Hub simulator)`, () => {
    let t: TestDatabase;
    const i = ids(dialect.name);
    const page = (id: string) => loadModelPage(id, new URL(`http://localhost/${id}`), undefined);
    const calls = (id: string) => sim.requests.filter((r) => r.path.includes(id)).length;

    beforeAll(async () => {
      t = await dialect.create();
      setDb(t.handle);
      const rows = Object.values(i).map((id, n) => ({
        kind: "record" as const,
        source: "seed.jsonl",
        line: n + 1,
        value: { id, pipeline_tag: "text-generation", library_name: "transformers", tags: ["transformers", "llama"], downloads: 10, likes: 1 },
      }));
      await importItems(t.handle, (async function* () { yield* rows; })(), { statsAsOf: "2024-07-11" });
    });
    afterAll(async () => {
      await t.drop();
    });

    it("shows the fetched card and files, stores them, and does not fetch on the next visit", async () => {
      const first = await page(i.ok);
      expect(first.live).toBeNull();
      expect(JSON.stringify(first.card)).toContain("Live card");
      const stored = await getModelById(t.handle.db, i.ok);
      expect(stored?.cardMarkdown).toBe(CARD);
      expect(stored?.siblings.map((s) => s.rfilename)).toEqual(["config.json"]);
      const fetched = calls(i.ok);
      expect(fetched).toBe(2);
      const second = await page(i.ok);
      expect(second.live).toBeNull();
      expect(calls(i.ok)).toBe(fetched);
    });

    it("answers before a slow Hub does, with a timed-out notice", async () => {
      sim.scriptFault({ path: `/api/models/${i.slow}` }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: SLOW_HUB_MS });
      const started = Date.now();
      const data = await page(i.slow);
      expect(Date.now() - started).toBeLessThan(SLOW_HUB_MS);
      expect(data.live).toMatchObject({ reason: "timeout", deadlineSeconds: 1 });
      expect(data.model.id).toBe(i.slow);
      const html = renderToStaticMarkup(createElement(LiveDetailsNotice, { notice: data.live!, modelId: i.slow }));
      expect(html).toContain("Live details could not be fetched");
      expect(html).toContain("timed out");
      expect(html).toContain("modelyard import");
    });

    for (const [what, id, reason, words] of [
      ["404", i.absent, "not-found", "not on the Hub"],
      ["5xx", i.down, "hub-error", "HTTP 503"],
      ["a malformed body", i.bad, "invalid", "could not be used"],
    ] as const) {
      it(`on ${what}: renders the catalogue's data with the notice, stores nothing, and does not ask again`, async () => {
        if (reason === "hub-error") sim.scriptFault({ path: `/api/models/${id}` }, { kind: "error", status: 503, times: "forever" });
        const data = await page(id);
        expect(data.live?.reason).toBe(reason);
        expect(data.summary.length).toBeGreaterThan(0);
        const html = renderToStaticMarkup(createElement(LiveDetailsNotice, { notice: data.live!, modelId: id }));
        expect(html).toContain(words);
        expect((await getModelById(t.handle.db, id))?.sha).toBeNull();
        const asked = calls(id);
        expect(asked).toBeGreaterThan(0);
        expect((await page(id)).live?.reason).toBe(reason);
        expect(calls(id)).toBe(asked);
      });
    }
  });
}

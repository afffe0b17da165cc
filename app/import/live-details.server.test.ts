/**
 * Live details against the Hub SIMULATOR (tests/simulators, a test tool, not the Hub) over real
 * sockets, stored in a real database (SQLite, and PostgreSQL when TEST_DATABASE_URL is set).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestDatabase } from "#tests/support/test-databases.ts";
import { testDialects } from "#tests/support/test-databases.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { createHubClient } from "#app/import/hub-client.server.ts";
import { importItems } from "#app/import/importer.server.ts";
import { createLiveDetails, needsLiveDetails } from "#app/import/live-details.server.ts";
import type { HubFixtureModel } from "#tests/simulators/hub-fixture.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const CARD = "---\nlicense: apache-2.0\n---\n# Tiny\n\nA tiny test model for live details.\n";
const SHA = "0123456789abcdef0123456789abcdef01234567";

function hubModel(id: string, over: Partial<HubFixtureModel> = {}): HubFixtureModel {
  return {
    id,
    pipeline_tag: "text-generation",
    tags: ["transformers", "llama", "text-generation"],
    inferenceProviderMapping: {},
    readme: CARD,
    details: {
      sha: SHA,
      library_name: "transformers",
      siblings: [{ rfilename: "config.json", size: 612 }, { rfilename: "model.safetensors", size: 1000, lfs: { size: 1000 } }],
      config: { architectures: ["LlamaForCausalLM"], model_type: "llama" },
      cardData: { license: "apache-2.0" },
      downloads: 999_999,
      likes: 77,
    },
    ...over,
  };
}

/** A list-API row, as the bundled catalogue holds: no card, no files, no config. */
const listRow = (id: string) => ({
  id,
  pipeline_tag: "text-generation",
  library_name: "transformers",
  tags: ["transformers", "llama", "text-generation"],
  downloads: 1234,
  likes: 5,
  createdAt: "2024-06-12T00:00:00.000Z",
  inferenceProviderMapping: [{ provider: "together", providerId: "org/tiny-turbo", task: "conversational", status: "live" }],
});

let sim: ProviderSimulator;

beforeAll(async () => {
  sim = await startProviderSimulator({
    hubModels: [
      hubModel("live/ok"),
      hubModel("live/coalesced"),
      hubModel("live/slow"),
      hubModel("live/server-error"),
      hubModel("live/malformed", { details: { sha: SHA, siblings: [{ rfilename: 42 }] } }),
      hubModel("live/has-card"),
      hubModel("live/empty-repo", { readme: undefined, details: { sha: SHA, siblings: [] } }),
    ],
  });
});
afterAll(async () => {
  await sim?.close();
});

for (const dialect of testDialects()) {
  describe(`live details (${dialect.name}, Hub simulator)`, () => {
    let t: TestDatabase;
    let now = 1_000_000;

    const service = (deadlineMs = 2_000) =>
      createLiveDetails({
        db: () => t.handle,
        client: createHubClient({ hubUrl: "https://huggingface.co", override: sim.url }),
        deadlineMs,
        now: () => now,
      });
    const seed = async (...rows: unknown[]) => {
      const items = (async function* () {
        let line = 0;
        for (const value of rows) yield { kind: "record" as const, source: "seed.jsonl", line: ++line, value };
      })();
      await importItems(t.handle, items, { statsAsOf: "2024-07-11" });
    };
    const model = async (id: string) => {
      const m = await getModelById(t.handle.db, id);
      if (!m) throw new Error(`no ${id}`);
      return m;
    };
    const hubCalls = (id: string) => sim.requests.filter((r) => r.path.includes(id)).length;

    beforeEach(async () => {
      t = await dialect.create();
      sim.reset();
      now = 1_000_000;
    });
    afterEach(async () => {
      await t.drop();
    });

    it("stores the card, files and config through the importer, keeping what the catalogue had; the next visit asks nothing", async () => {
      await seed(listRow("live/ok"));
      const before = await model("live/ok");
      expect(needsLiveDetails(before)).toBe(true);
      const live = service();
      expect(await live.ensure(before)).toEqual({ state: "stored" });
      const after = await model("live/ok");
      expect(after.cardMarkdown).toBe(CARD);
      expect(after.siblings.map((s) => s.rfilename)).toEqual(["config.json", "model.safetensors"]);
      expect(after.config).toEqual({ architectures: ["LlamaForCausalLM"], model_type: "llama" });
      expect(after.sha).toBe(SHA);
      // Merged, not replaced: the snapshot's counts and date and the provider mapping stay.
      expect(after.downloads).toBe(1234);
      expect(after.likes).toBe(5);
      expect(after.statsAsOf).toBe("2024-07-11");
      expect(after.createdAt).toBe("2024-06-12T00:00:00.000Z");
      expect(after.inferenceProviderMapping.map((p) => p.provider)).toEqual(["together"]);
      expect(needsLiveDetails(after)).toBe(false);
      expect(hubCalls("live/ok")).toBe(2);
    });

    it("coalesces concurrent visits into one fetch", async () => {
      await seed(listRow("live/coalesced"));
      const m = await model("live/coalesced");
      const live = service();
      const outcomes = await Promise.all([live.ensure(m), live.ensure(m), live.ensure(m)]);
      expect(outcomes).toEqual([{ state: "stored" }, { state: "stored" }, { state: "stored" }]);
      expect(hubCalls("live/coalesced")).toBe(2);
    });

    it("does not ask again on every visit when the Hub itself has no files or card", async () => {
      await seed(listRow("live/empty-repo"));
      const live = service();
      expect(await live.ensure(await model("live/empty-repo"))).toEqual({ state: "stored" });
      const after = await model("live/empty-repo");
      expect(after.cardMarkdown).toBe("");
      expect(after.siblings).toEqual([]);
      expect(needsLiveDetails(after)).toBe(true);
      const asked = hubCalls("live/empty-repo");
      expect(await live.ensure(after)).toEqual({ state: "stored" });
      expect(hubCalls("live/empty-repo")).toBe(asked);
    });

    it("fills only what the catalogue lacks: an imported config, tags and card data stay", async () => {
      // A card imported with its own config (say, a local folder), but no file list yet.
      const local = { architectures: ["LlamaForSequenceClassification"], model_type: "llama", num_labels: 3 };
      await seed({ ...listRow("live/ok"), tags: ["transformers", "local-tag"], config: local, cardData: { license: "mit" }, readme: "# Local card\n" });
      expect(await service().ensure(await model("live/ok"))).toEqual({ state: "stored" });
      const after = await model("live/ok");
      expect(after.siblings.map((s) => s.rfilename)).toEqual(["config.json", "model.safetensors"]);
      expect(after.sha).toBe(SHA);
      expect(after.config).toEqual(local);
      expect(after.tags).toContain("local-tag");
      expect(after.cardData).toEqual({ license: "mit" });
      expect(after.cardMarkdown).toBe("# Local card\n");
    });

    it("never asks the Hub about a model that has its card and files (a local folder import)", async () => {
      await seed({ ...listRow("live/ok"), readme: "# Local\n", siblings: [{ rfilename: "model.gguf" }] });
      expect(needsLiveDetails(await model("live/ok"))).toBe(false);
    });

    it("keeps an imported card and asks only for the record", async () => {
      await seed({ ...listRow("live/has-card"), readme: "# Our own card\n" });
      const live = service();
      expect(await live.ensure(await model("live/has-card"))).toEqual({ state: "stored" });
      const after = await model("live/has-card");
      expect(after.cardMarkdown).toBe("# Our own card\n");
      expect(after.siblings).toHaveLength(2);
      expect(sim.requests.filter((r) => r.path.includes("README")).length).toBe(0);
    });

    it("answers a slow Hub within the deadline with a timeout, stores nothing, and remembers it", async () => {
      await seed(listRow("live/slow"));
      sim.scriptFault({ path: "/api/models/live/slow" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 3_000 });
      const live = service(300);
      const started = Date.now();
      const outcome = await live.ensure(await model("live/slow"));
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(outcome).toMatchObject({ state: "failed", reason: "timeout" });
      const calls = hubCalls("live/slow");
      expect(await live.ensure(await model("live/slow"))).toMatchObject({ state: "failed", reason: "timeout" });
      expect(hubCalls("live/slow")).toBe(calls);
      expect((await model("live/slow")).cardMarkdown).toBeNull();
    });

    for (const [name, id, setup, reason] of [
      ["404", "live/absent", () => {}, "not-found"],
      ["5xx", "live/server-error", () => sim.scriptFault({ path: "/api/models/live/server-error" }, { kind: "error", status: 502, times: "forever" }), "hub-error"],
      ["a malformed body", "live/malformed", () => {}, "invalid"],
    ] as const) {
      it(`on ${name}: stores nothing, reports ${reason}, remembers the failure until it expires`, async () => {
        await seed(listRow(id));
        setup();
        const live = service();
        const first = await live.ensure(await model(id));
        expect(first).toMatchObject({ state: "failed", reason });
        const calls = hubCalls(id);
        expect(calls).toBeGreaterThan(0);
        const unchanged = await model(id);
        expect(unchanged.sha).toBeNull();
        expect(unchanged.cardMarkdown).toBeNull();
        expect(unchanged.siblings).toEqual([]);
        expect(await live.ensure(unchanged)).toMatchObject({ state: "failed", reason });
        expect(hubCalls(id)).toBe(calls);
        now += 5 * 60_000 + 1;
        await live.ensure(unchanged);
        expect(hubCalls(id)).toBeGreaterThan(calls);
      });
    }
  });
}

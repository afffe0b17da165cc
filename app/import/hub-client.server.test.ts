/**
 * The shared Hub client against the Hub SIMULATOR (tests/simulators, a test tool, not the Hub)
 * over real sockets, through the MODELYARD_UPSTREAM_OVERRIDE scheme: nothing leaves the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHubClient, HubFetchError } from "#app/import/hub-client.server.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const CARD = "---\nlicense: apache-2.0\n---\n# Tiny\n\nA tiny test model.\n";
const tiny = {
  id: "sim-org/tiny",
  pipeline_tag: "text-generation",
  tags: ["transformers", "llama"],
  inferenceProviderMapping: {},
  readme: CARD,
  details: {
    sha: "0123456789abcdef0123456789abcdef01234567",
    library_name: "transformers",
    siblings: [{ rfilename: "config.json", size: 612 }, { rfilename: "model.safetensors", size: 1000, lfs: { size: 1000 } }],
    config: { architectures: ["LlamaForCausalLM"], model_type: "llama" },
    cardData: { license: "apache-2.0" },
    downloads: 5,
  },
};

let sim: ProviderSimulator;
const client = () => createHubClient({ hubUrl: "https://huggingface.co", override: sim.url });

async function failure(p: Promise<unknown>): Promise<HubFetchError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HubFetchError) return e;
    throw e;
  }
  throw new Error("expected a HubFetchError");
}

beforeAll(async () => {
  sim = await startProviderSimulator({ hubModels: [tiny, { ...tiny, id: "sim-org/no-readme", readme: undefined }] });
});
beforeEach(() => sim.reset());
afterAll(async () => {
  await sim?.close();
});

describe("Hub client (against the Hub simulator)", () => {
  it("fetches the record and the README through the override, to the Hub host only", async () => {
    const rec = await client().fetchModel("sim-org/tiny", { withReadme: true });
    expect(rec.id).toBe("sim-org/tiny");
    expect(rec.readme).toBe(CARD);
    expect(rec.sha).toBe(tiny.details.sha);
    expect(rec.siblings).toHaveLength(2);
    expect(rec.config).toEqual(tiny.details.config);
    expect(sim.requests.map((r) => `${r.host}${r.path}${r.query}`).sort()).toEqual([
      "huggingface.co/api/models/sim-org/tiny?blobs=true",
      "huggingface.co/sim-org/tiny/raw/main/README.md",
    ]);
  });

  it("does not ask for the README when not asked to, and takes a missing README as an empty card", async () => {
    const rec = await client().fetchModel("sim-org/tiny", { withReadme: false });
    expect(rec.readme).toBeUndefined();
    expect(sim.requests).toHaveLength(1);
    const bare = await client().fetchModel("sim-org/no-readme", { withReadme: true });
    expect(bare.readme).toBe("");
  });

  it("reports 404 as not-found, 5xx as hub-error", async () => {
    expect((await failure(client().fetchModel("sim-org/absent", { withReadme: true }))).kind).toBe("not-found");
    sim.scriptFault({ path: "/api/models/sim-org/tiny" }, { kind: "error", status: 503 });
    const err = await failure(client().fetchModel("sim-org/tiny", { withReadme: true }));
    expect(err.kind).toBe("hub-error");
    expect(err.message).toContain("503");
  });

  it("keeps the record when only the README fails, leaving the card missing", async () => {
    sim.scriptFault({ path: "/sim-org/tiny/raw/main/README.md" }, { kind: "error", status: 503 });
    const record = await client().fetchModel("sim-org/tiny", { withReadme: true });
    expect(record.id).toBe("sim-org/tiny");
    expect(record.readme).toBeUndefined();
  });

  it("reports a body that is not JSON, or not a model record, as invalid", async () => {
    sim.addHubModel({ ...tiny, id: "sim-org/bad", details: { siblings: "not a list" } });
    // A 200 HTML page, as a captive portal or a proxy's error page would send.
    const html = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>Welcome to the proxy</html>");
    });
    await new Promise<void>((r) => html.listen(0, "127.0.0.1", r));
    try {
      const htmlClient = createHubClient({ hubUrl: "https://huggingface.co", override: `http://127.0.0.1:${(html.address() as AddressInfo).port}` });
      const notJson = await failure(htmlClient.fetchModel("sim-org/tiny", { withReadme: false }));
      expect(notJson.kind).toBe("invalid");
      expect(notJson.message).toContain("not JSON");
    } finally {
      await new Promise((r) => html.close(r));
    }
    const bad = await failure(client().fetchModel("sim-org/bad", { withReadme: true }));
    expect(bad.kind).toBe("invalid");
    expect(bad.message).toContain("siblings");
  });

  it("times out on a slow Hub when the signal fires", async () => {
    sim.scriptFault({ path: "/api/models/sim-org/tiny" }, { kind: "slow", tokenDelayMs: 0, firstByteDelayMs: 2_000 });
    const started = Date.now();
    const err = await failure(client().fetchModel("sim-org/tiny", { withReadme: true, signal: AbortSignal.timeout(200) }));
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("refuses ids outside the grammar before any request, and does not follow redirects", async () => {
    expect((await failure(client().fetchModel("../etc/passwd", { withReadme: true }))).kind).toBe("invalid");
    expect(sim.requests).toHaveLength(0);
    const redirect = http.createServer((_req, res) => {
      res.writeHead(302, { Location: "https://elsewhere.example/" });
      res.end();
    });
    await new Promise<void>((r) => redirect.listen(0, "127.0.0.1", r));
    try {
      const c = createHubClient({ hubUrl: "https://huggingface.co", override: `http://127.0.0.1:${(redirect.address() as AddressInfo).port}` });
      const err = await failure(c.fetchModel("sim-org/tiny", { withReadme: false }));
      expect(err.kind).toBe("hub-error");
      expect(err.message).toContain("redirect");
    } finally {
      await new Promise((r) => redirect.close(r));
    }
  });

  it("goes to MODELYARD_HUB_URL's host when no override is set", () => {
    const c = createHubClient({ hubUrl: "https://hub.example.org/", override: null });
    expect(c.urls("org/m")).toEqual({
      model: "https://hub.example.org/api/models/org/m?blobs=true",
      readme: "https://hub.example.org/org/m/raw/main/README.md",
    });
  });
});

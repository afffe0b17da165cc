/**
 * `modelyard import --hub` against the Hub SIMULATOR (tests/simulators, a test tool, not the Hub),
 * over real sockets through MODELYARD_UPSTREAM_OVERRIDE: the same Hub client as live details.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-cli-hub-"));
const dbUrl = `sqlite:${path.join(tmp, "hub.db")}`;
let sim: ProviderSimulator;

beforeAll(async () => {
  sim = await startProviderSimulator({
    hubModels: [
      {
        id: "sim-org/tiny",
        pipeline_tag: "text-generation",
        tags: ["transformers", "llama"],
        inferenceProviderMapping: {},
        readme: "# Tiny\n",
        details: { sha: "b".repeat(40), siblings: [{ rfilename: "config.json", size: 10 }], config: { model_type: "llama" }, downloads: 42 },
      },
    ],
  });
});
afterAll(async () => {
  await sim?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Async, not spawnSync: the simulator answering the child runs on this process's event loop. */
function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), ...args], {
      cwd: tmp,
      env: { ...process.env, DATABASE_URL: dbUrl, MODELYARD_UPSTREAM_OVERRIDE: sim.url },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}

it("imports models fetched from the Hub with live counts, and reports the ones it could not get", async () => {
  const { code, out } = await cli(["import", "--hub", "sim-org/tiny", "sim-org/absent"]);
  expect(out).toMatch(/1 inserted/);
  expect(out).toMatch(/Not imported: sim-org\/absent: The Hub has no public model/);
  expect(code).toBe(1);
  expect(sim.requests.every((r) => r.host === "huggingface.co")).toBe(true);
  const handle = openDatabase(dbUrl);
  try {
    const m = await getModelById(handle.db, "sim-org/tiny");
    expect(m?.cardMarkdown).toBe("# Tiny\n");
    expect(m?.downloads).toBe(42);
    expect(m?.statsAsOf).toBeNull();
  } finally {
    await handle.close();
  }
}, 120_000);

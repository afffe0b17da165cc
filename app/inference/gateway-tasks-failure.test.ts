/**
 * "Failed to load tasks definitions from Hugging Face Hub.": the library loads /api/tasks once per
 * process and keeps it, so this runs in its own file (its own worker) before anything loads it.
 * The gateway answers /api/tasks in-process; here the catalogue's task source fails.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createInferenceGateway } from "#app/inference/gateway.server.ts";
import { buildTestCatalog, serveGateway, type ServedGateway, type TestCatalog } from "#tests/inference/serve-gateway.ts";
import { HUB_FIXTURE_MODELS } from "#tests/simulators/hub-fixture.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";

let sim: ProviderSimulator;
let catalogue: TestCatalog;
let served: ServedGateway;
let failTasks = true;

beforeAll(async () => {
  sim = await startProviderSimulator();
  catalogue = await buildTestCatalog(HUB_FIXTURE_MODELS.map((m) => ({ ...m })));
  const real = catalogue.catalog;
  const gateway = createInferenceGateway({
    catalog: {
      getModel: (id) => real.getModel(id),
      tasksPayload: async () => {
        if (failTasks) throw new Error("task data unavailable");
        return real.tasksPayload();
      },
    },
    env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url },
    database: catalogue.database,
    log: () => {},
  });
  served = await serveGateway(gateway);
});

afterAll(async () => {
  await served?.close();
  await sim?.close();
  await catalogue?.drop();
});

const call = () =>
  fetch(`${served.url}/api/inference`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Provider-Token": "hf_tasksFailureTest123456" },
    body: JSON.stringify({ provider: "hf-inference", task: "text-classification", inputs: "fine" }),
  });

it("maps a failure to load the task definitions to 502 tasks_unavailable, and recovers once they load", async () => {
  const res = await call();
  expect(res.status).toBe(502);
  expect(await res.json()).toEqual({
    error: {
      message: "Failed to load tasks definitions from Hugging Face Hub.",
      code: "tasks_unavailable",
      hint: "The task definitions could not be loaded, so no default model could be chosen; pick a model.",
    },
  });
  expect(sim.requests).toEqual([]);
  failTasks = false;
  const ok = await call();
  expect(ok.status).toBe(200);
  expect(sim.requests.filter((r) => r.service === "hub")).toEqual([]);
});

/**
 * A server that stops closes its database once its calls have answered (cli/serve-command.ts):
 * the writes each call makes after answering, its quota settled and its usage record, must be done
 * by then. Accounts on every engine the suite has; the provider is the SIMULATOR.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPerson, createPersonalToken } from "#app/auth/accounts.server.ts";
import { openDatabase } from "#app/db/client.server.ts";
import { countUsageRecords, readCounter } from "#app/db/queries/usage.server.ts";
import { createInferenceGateway, gatewayWritesSettled } from "#app/inference/gateway.server.ts";
import { buildTestCatalog, serveGateway, type TestCatalog } from "#tests/inference/serve-gateway.ts";
import { HUB_FIXTURE_MODELS } from "#tests/simulators/hub-fixture.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

let sim: ProviderSimulator;
let catalogue: TestCatalog;

beforeAll(async () => {
  sim = await startProviderSimulator({ hubModels: HUB_FIXTURE_MODELS });
  catalogue = await buildTestCatalog(HUB_FIXTURE_MODELS.map((m) => ({ ...m })));
});

afterAll(async () => {
  await sim?.close();
  await catalogue?.drop();
});

describe.each(testDialects())("the writes of calls that ended, at shutdown, on $name", (dialect) => {
  let accounts: TestDatabase;
  beforeAll(async () => {
    accounts = await dialect.create();
  });
  afterAll(async () => {
    await accounts?.drop();
  });

  it("are all done when the database closes after the last answer: each call recorded, and charged what it used rather than its worst case", async () => {
    const { user } = await addPerson(accounts.handle.db, { email: "last@example.com", role: "member" }, "http://x");
    const made = await createPersonalToken(accounts.handle.db, user.id, { name: "daily", expiresInDays: null, scopes: ["inference"], rpm: null, tokensPerDay: 100_000 });
    const gateway = createInferenceGateway({
      catalog: catalogue.catalog,
      database: () => accounts.handle.db,
      env: { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_serverWritesKey0987654321", MODELYARD_INFERENCE_MAX_RETRIES: "0", MODELYARD_MEMBER_TOKENS_PER_DAY: "100000" },
      log: () => {},
    });
    const served = await serveGateway(gateway);
    const calls = 4;
    const answers = await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        fetch(`${served.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${made.token}` },
          body: JSON.stringify({ model: "meta-llama/Llama-3.3-70B-Instruct:together", max_tokens: 500, messages: [{ role: "user", content: `hello ${i}` }] }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { usage?: { total_tokens?: number } } })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(calls).fill(200));
    const used = answers.reduce((n, a) => n + (a.body.usage?.total_tokens ?? 0), 0);
    expect(used).toBeGreaterThan(0);
    // As serve stops: the listener closes, the gateway's writes end, then the database closes.
    await served.close();
    await gatewayWritesSettled();
    await accounts.handle.close();

    const reopened = openDatabase(accounts.url);
    try {
      const day = Math.floor(Date.now() / 86_400_000);
      expect(await countUsageRecords(reopened.db, { since: "1970-01-01T00:00:00.000Z", userId: user.id })).toBe(calls);
      expect(await readCounter(reopened.db, `tokens:token:${made.id}`, day)).toBe(used);
      expect(await readCounter(reopened.db, `tokens:user:${user.id}`, day)).toBe(used);
    } finally {
      await reopened.close();
    }
  });
});

/**
 * Two real servers on one database (PostgreSQL when TEST_DATABASE_URL is set, and a shared SQLite
 * file always): a session and an API token made on one work on the other, sign-out on one ends
 * the session on both, and a quota of N requests allows N in total across both (ADR 0038); a model
 * imported with the CLI beside them is listed by both once each has rebuilt its index, and both
 * are ready again (ADR 0041). Providers are the SIMULATOR.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runModelyard } from "#tests/e2e/support/import-cli.ts";
import { startTestServer, type TestServer } from "#tests/e2e/support/server.ts";
import { startProviderSimulator, type ProviderSimulator } from "#tests/simulators/provider-simulator.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

const CHAT = JSON.stringify({ model: "meta-llama/Meta-Llama-3-8B-Instruct", provider: "together", messages: [{ role: "user", content: "hi" }] });

// The engine several instances share in production; SQLite runs below whatever the environment.
if (!process.env["TEST_DATABASE_URL"]?.startsWith("postgres")) {
  describe("two instances on PostgreSQL", () => {
    it("share one catalogue, sessions, tokens and quotas", ({ skip }) => skip("TEST_DATABASE_URL is unset: set it to a PostgreSQL server to run these journeys on PostgreSQL too"));
  });
}

describe.each(testDialects())("two instances on one $name database", (dialect) => {
  let sim: ProviderSimulator;
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    sim = await startProviderSimulator();
    database = await dialect.create();
    const env = { MODELYARD_UPSTREAM_OVERRIDE: sim.url, HF_TOKEN: "hf_twoInstancesServerKey000" };
    // One after the other: the first loads the bundled catalogue into the empty database.
    a = await startTestServer({ databaseUrl: database.url, env });
    b = await startTestServer({ databaseUrl: database.url, env });
  }, 240_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await sim?.close();
    await database?.drop();
  });

  const sameSite = (server: TestServer) => ({ Origin: server.url, "Sec-Fetch-Site": "same-origin" });

  it("a session started on one instance is known to the other, and sign-out on one ends it on both", async () => {
    const out = await runModelyard(database.url, ["users", "add", "pat@example.com"], { MODELYARD_PUBLIC_URL: a.url });
    const link = /(http:\/\/\S+\/invite\/\S+)/.exec(out)![1]!;
    const set = await fetch(link, { method: "POST", redirect: "manual", headers: { ...sameSite(a), "Content-Type": "application/x-www-form-urlencoded" }, body: "password=two+instances+password&confirm=two+instances+password" });
    expect(set.status).toBe(302);
    const cookie = set.headers.get("set-cookie")!.split(";")[0]!;

    const onB = await fetch(`${b.url}/settings/tokens`, { headers: { cookie }, redirect: "manual" });
    expect(onB.status).toBe(200);
    const html = await onB.text();
    expect(html).toContain("pat@example.com");

    // A token made on B's page works on A.
    const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(html)![1]!;
    const made = await fetch(`${b.url}/settings/tokens`, {
      method: "POST",
      headers: { cookie, ...sameSite(b), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, intent: "create", name: "shared", expires: "7", scopes: "inference" }).toString(),
    });
    const token = /data-token-value="true">(myd_[A-Za-z0-9_-]+)</.exec(await made.text())?.[1] ?? /(myd_[A-Za-z0-9_-]{40})/.exec(await (await fetch(`${b.url}/settings/tokens`, { headers: { cookie } })).text())?.[1];
    expect(token).toMatch(/^myd_/);
    const used = await fetch(`${a.url}/api/inference`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: CHAT });
    expect(used.status, await used.clone().text()).toBe(200);

    // Signing out on A ends the session on B at once.
    const signOut = await fetch(`${a.url}/logout`, { method: "POST", redirect: "manual", headers: { cookie, ...sameSite(a), "Content-Type": "application/x-www-form-urlencoded" }, body: `csrf=${csrf}` });
    expect(signOut.status).toBe(302);
    const after = await fetch(`${b.url}/settings/tokens`, { headers: { cookie }, redirect: "manual" });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/login?redirectTo=%2Fsettings%2Ftokens");
    for (const s of [a, b]) expect(s.output()).not.toContain(token!);
  });

  it("an instance started on a catalogue another has indexed loads the saved listing index instead of building it (ADR 0045)", async () => {
    await expect.poll(async () => ((await (await fetch(`${a.url}/readyz`)).json()) as { status: string }).status, { timeout: 60_000, interval: 250 }).toBe("pass");
    const c = await startTestServer({ databaseUrl: database.url });
    try {
      await expect.poll(() => c.output(), { timeout: 60_000, interval: 250 }).toMatch(/Listing index (loaded|built and saved) for catalogue generation \d+/);
      expect(c.output()).toMatch(/Listing index loaded for catalogue generation \d+/);
      const res = await fetch(`${c.url}/api/models?search=bert&limit=5`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Array<{ id: string }>).length).toBeGreaterThan(0);
    } finally {
      await c.stop();
    }
  });

  it("a model imported with the CLI beside both instances is listed by each once it has rebuilt its index", async () => {
    const id = `shared-${dialect.name}/imported-beside-two-instances`;
    const file = path.join(a.dir, "beside.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ id, pipeline_tag: "text-generation", library_name: "transformers", tags: ["text-generation"], downloads: 7, likes: 1 })}\n`);
    const out = await runModelyard(database.url, ["import", file, "--stats-as-of", "2026-01-01"]);
    expect(out).toMatch(/1 inserted/);
    for (const server of [a, b]) {
      await expect
        .poll(async () => {
          const res = await fetch(`${server.url}/api/models?search=imported-beside-two-instances`);
          return ((await res.json()) as Array<{ id: string }>).map((m) => m.id);
        }, { timeout: 60_000, interval: 250 })
        .toContain(id);
      // Ready again: its listing index is this generation's.
      await expect.poll(async () => ((await (await fetch(`${server.url}/readyz`)).json()) as { status: string }).status, { timeout: 60_000, interval: 250 }).toBe("pass");
    }
  });

  it("a quota of 5 requests a minute allows 5 in total across both instances", async () => {
    await runModelyard(database.url, ["users", "add", "quinn@example.com"]);
    const out = await runModelyard(database.url, ["tokens", "create", "quinn@example.com", "--name", "quota", "--rpm", "5"]);
    const token = /(myd_\S+)/.exec(out)![1]!;
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${(i % 2 === 0 ? a : b).url}/api/inference`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: CHAT });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429, 429]);
  });
});

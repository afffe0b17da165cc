import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUsageReport, GROUPS_SHOWN } from "#app/auth/usage-report.server.ts";
import { insertUsageRecord } from "#app/db/queries/usage.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

describe.each(testDialects())("the usage report on $name", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await dialect.create();
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  const record = (model: string, provider: string, at: string) => ({
    at,
    day: at.slice(0, 10),
    user_id: null,
    token_id: null,
    subject: "anonymous",
    model,
    provider,
    task: "conversational",
    paid_by: "server",
    status: 200,
    duration_ms: 10,
    ttft_ms: null,
    tokens_in: 1,
    tokens_out: 2,
    bill_to: null,
    endpoint: "/api/inference",
  });

  it("says how many models there are when it lists only the busiest, and counts every call in its totals", async () => {
    const db = t.handle.db;
    const now = new Date().toISOString();
    // 18 models, model-0 with the most calls; two providers.
    for (let m = 0; m < 18; m++) for (let i = 0; i < (m === 0 ? 3 : 1); i++) await insertUsageRecord(db, record(`org/model-${m}`, m % 2 ? "groq" : "together", now));
    // Outside every range: not counted.
    await insertUsageRecord(db, record("org/old-model", "nebius", "2000-01-01T00:00:00.000Z"));

    const report = await buildUsageReport(db, new Request("http://x/admin/usage?days=7"), { dimensions: ["day", "provider", "model"] });
    expect(report.count).toBe(20);
    expect(report.totals.model).toHaveLength(GROUPS_SHOWN);
    expect(report.totals.model?.[0]).toMatchObject({ key: "org/model-0", requests: 3 });
    expect(report.groupCounts.model).toBe(18);
    // A dimension shown whole says so: both providers, and the day.
    expect(report.totals.provider?.map((g) => g.key).sort()).toEqual(["groq", "together"]);
    expect(report.groupCounts.provider).toBe(2);
    expect(report.totals.day?.reduce((n, g) => n + g.requests, 0)).toBe(20);
  });
});

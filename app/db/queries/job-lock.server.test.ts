import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { runOnceAcrossInstances } from "#app/db/queries/job-lock.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/** Two instances' handles on one database, each starting the hourly job (ADR 0041). Both engines. */
describe.each(testDialects())("a job across instances on $name", (dialect) => {
  let db: TestDatabase;
  let other: DatabaseHandle;
  beforeAll(async () => {
    db = await dialect.create();
    other = openDatabase(db.url);
  });
  afterAll(async () => {
    await other?.close();
    await db?.drop();
  });

  const HOUR = 3_600_000;
  const T0 = Date.parse("2026-01-01T00:00:00Z");

  it("runs once when every instance starts it at the same moment, and again once the period has passed", async () => {
    let runs = 0;
    const job = async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 50));
    };
    const first = await Promise.all([db.handle, other, db.handle, other].map((h) => runOnceAcrossInstances(h, "prune", HOUR, job, T0)));
    expect(first.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    // Later in the same period: nobody.
    expect(await runOnceAcrossInstances(other, "prune", HOUR, job, T0 + HOUR / 2)).toBe(false);
    // The next period: one of them.
    const next = await Promise.all([db.handle, other].map((h) => runOnceAcrossInstances(h, "prune", HOUR, job, T0 + HOUR)));
    expect(next.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(2);
    // Another job is claimed apart.
    expect(await runOnceAcrossInstances(db.handle, "recount", HOUR, job, T0)).toBe(true);
  });

  // PostgreSQL only: SQLite's claim alone decides, as its writes are serialised.
  if (dialect.name === "postgres")
    it("never overlaps a run still going on another instance, even past its period", async () => {
    let release = () => {};
    const long = new Promise<void>((r) => (release = r));
    const running = runOnceAcrossInstances(db.handle, "long", 1, () => long, T0);
    await new Promise((r) => setTimeout(r, 100));
    expect(await runOnceAcrossInstances(other, "long", 1, async () => {}, T0 + 10)).toBe(false);
    release();
    expect(await running).toBe(true);
    expect(await runOnceAcrossInstances(other, "long", 1, async () => {}, T0 + 20)).toBe(true);
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";
import { importIntoEmptyCatalogue } from "#app/import/first-load.server.ts";
import { modelDetailRecords, writeRecords } from "#tests/support/fixtures.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

describe.each(testDialects())("the first load of an empty catalogue on $name", (dialect) => {
  let db: TestDatabase;
  const others: DatabaseHandle[] = [];
  const records = writeRecords(modelDetailRecords());
  beforeAll(async () => {
    db = await dialect.create();
  });
  afterAll(async () => {
    for (const h of others) await h.close();
    await db?.drop();
    records.cleanup();
  });

  // PostgreSQL only: better-sqlite3 is synchronous, so two handles in one process cannot write at once.
  if (dialect.name === "postgres")
    it("is made by one of several instances starting at the same moment; the others wait and find it loaded", async () => {
      others.push(openDatabase(db.url), openDatabase(db.url));
      const handles = [db.handle, ...others];
      // Whoever finds the catalogue empty loads only once every instance has found it so, or is
      // seen waiting for the one loading: so the instances overlap however the scheduler runs them.
      let empty = 0;
      const everyoneChecked = async () => {
        empty += 1;
        for (;;) {
          const waiting = await sql<{ n: string }>`select count(*) as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`.execute(db.handle.db);
          if (empty + Number(waiting.rows[0]!.n) >= handles.length) return;
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      const results = await Promise.allSettled(handles.map((h) => importIntoEmptyCatalogue(h, [records.file], { batchSize: 5 }, everyoneChecked)));
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok"]);
      const loads = results.flatMap((r) => (r.status === "fulfilled" && r.value ? [r.value] : []));
      expect(loads).toHaveLength(1);
      expect(loads[0]!.inserted).toBe(await countModels(db.handle.db));
    });

  it("leaves a catalogue that holds models as it is", async () => {
    if ((await countModels(db.handle.db)) === 0) expect(await importIntoEmptyCatalogue(db.handle, [records.file])).not.toBeNull();
    const before = await countModels(db.handle.db);
    expect(before).toBeGreaterThan(0);
    expect(await importIntoEmptyCatalogue(db.handle, [records.file])).toBeNull();
    expect(await countModels(db.handle.db)).toBe(before);
  });
});

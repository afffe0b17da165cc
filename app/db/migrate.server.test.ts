import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { applyMigration, migrate, pendingMigrations } from "#app/db/migrate.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/** Several instances migrating one new database at start (README "Several instances behind a load balancer"). */
describe.each(testDialects())("migrations on $name", (dialect) => {
  let db: TestDatabase;
  const others: DatabaseHandle[] = [];
  beforeAll(async () => {
    db = await dialect.create({ migrated: false });
  });
  afterAll(async () => {
    for (const h of others) await h.close();
    await db?.drop();
  });

  // PostgreSQL only: better-sqlite3 is synchronous, so two handles in one process cannot migrate
  // at once (one blocks the thread the other needs); separate SQLite processes take the claim below.
  if (dialect.name === "postgres")
    it("all succeed when several instances migrate a new database at the same moment, and each migration is applied once", async () => {
      others.push(openDatabase(db.url), openDatabase(db.url), openDatabase(db.url));
      const all = await pendingMigrations(db.handle);
      const results = await Promise.allSettled([db.handle, ...others].map((h) => migrate(h)));
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok", "ok"]);
      const applied = results.flatMap((r) => (r.status === "fulfilled" ? r.value : []));
      expect(applied.sort()).toEqual([...all].sort());
      expect(await pendingMigrations(db.handle)).toEqual([]);
    });

  it("skips a migration another process recorded after this one read the list, instead of applying it again", async () => {
    await migrate(db.handle);
    let ran = 0;
    const late = {
      name: "9999-test-late",
      up: async (trx: Kysely<unknown>) => {
        ran += 1;
        // Not idempotent, as most DDL is not: a second run fails.
        await sql`create table test_late (id integer primary key)`.execute(trx);
      },
    };
    const kdb = db.handle.db as unknown as Kysely<unknown>;
    expect(await applyMigration(kdb, db.handle.dialect, late)).toBe(true);
    // The other process's view: it read the list before the migration was recorded.
    expect(await applyMigration(kdb, db.handle.dialect, late)).toBe(false);
    expect(ran).toBe(1);
  });
});

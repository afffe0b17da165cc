import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { applyMigration, migrate, NewerDatabaseError, pendingMigrations } from "#app/db/migrate.server.ts";
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

  it("refuses a database a newer version has migrated, naming what it does not know, and writes nothing", async () => {
    const newer = await dialect.create({ migrated: true });
    try {
      const kdb = newer.handle.db as unknown as Kysely<unknown>;
      await sql`insert into modelyard_migrations (name, applied_at) values ('0099-from-a-newer-version', '2027-01-01T00:00:00.000Z')`.execute(kdb);
      const before = await sql<{ name: string }>`select name from modelyard_migrations order by name`.execute(kdb);
      const error: unknown = await migrate(newer.handle).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NewerDatabaseError);
      expect((error as Error).message).toMatch(/newer version of Modelyard.*0099-from-a-newer-version.*Run the newer version again, or restore a backup/);
      const after = await sql<{ name: string }>`select name from modelyard_migrations order by name`.execute(kdb);
      expect(after.rows).toEqual(before.rows);
    } finally {
      await newer.drop();
    }
  });
});

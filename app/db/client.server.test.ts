import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEFAULT_SQLITE_PATH, describeDatabaseUrl, openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { testDialects } from "#tests/support/test-databases.ts";

describe("describeDatabaseUrl", () => {
  it("maps DATABASE_URL to an engine", () => {
    expect(describeDatabaseUrl(undefined)).toEqual({ dialect: "sqlite", target: DEFAULT_SQLITE_PATH });
    expect(describeDatabaseUrl("")).toEqual({ dialect: "sqlite", target: DEFAULT_SQLITE_PATH });
    expect(describeDatabaseUrl("sqlite:/tmp/x.db")).toEqual({ dialect: "sqlite", target: "/tmp/x.db" });
    expect(describeDatabaseUrl("sqlite://data/x.db")).toEqual({ dialect: "sqlite", target: "data/x.db" });
    expect(describeDatabaseUrl("postgres://u:p@h/db").dialect).toBe("postgres");
    expect(describeDatabaseUrl("postgresql://u:p@h/db").dialect).toBe("postgres");
    expect(() => describeDatabaseUrl("sqlite:")).toThrow(/needs a path/);
    expect(() => describeDatabaseUrl("mysql://secret@h/db")).toThrow(/must be unset/);
    expect(() => describeDatabaseUrl("mysql://secret@h/db")).not.toThrow(/secret/);
  });
});

for (const dialect of testDialects()) {
  describe(`migrations on ${dialect.name}`, () => {
    it("create the catalogue tables once and are idempotent", async () => {
      const t = await dialect.create();
      try {
        expect(await migrate(t.handle)).toEqual([]);
        const names = await sql<{ name: string }>`select name from modelyard_migrations order by name`.execute(t.handle.db);
        expect(names.rows.map((r) => r.name)[0]).toBe("0001-catalogue");
        for (const table of ["models", "model_details", "model_tags", "model_providers", "model_bases", "spaces", "space_models", "meta", "facet_cache"] as const) {
          await expect(t.handle.db.selectFrom(table).selectAll().limit(1).execute()).resolves.toEqual([]);
        }
        const password = new URL(t.url.startsWith("postgres") ? t.url : "sqlite://x").password;
        if (password) expect(t.handle.location).not.toContain(`:${password}@`);
      } finally {
        await t.drop();
      }
    });
  });
}

describe("a SQLite transaction that fills the disk", () => {
  it("fails with the database's own error, not a failed rollback, and the database stays usable", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-full-"));
    const handle = openDatabase(`sqlite:${path.join(dir, "full.db")}`);
    try {
      await sql`create table filler (x text)`.execute(handle.db);
      // A page budget stands in for a full disk: SQLite answers SQLITE_FULL and rolls back by itself.
      handle.sqlite!.pragma("max_page_count = 20");
      const filling = handle.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i++) await sql`insert into filler values (${"x".repeat(4000)})`.execute(trx);
      });
      await expect(filling).rejects.toThrow("database or disk is full");
      expect(handle.sqlite!.inTransaction).toBe(false);
      const rows = await sql<{ n: number }>`select count(*) as n from filler`.execute(handle.db);
      expect(rows.rows[0]?.n).toBe(0);
      // And a rollback that has something to roll back still does.
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into filler values ('kept?')`.execute(trx);
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect((await sql<{ n: number }>`select count(*) as n from filler`.execute(handle.db)).rows[0]?.n).toBe(0);
    } finally {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PostgreSQL connections the server ends", () => {
  const pg = testDialects().find((d) => d.name === "postgres");
  it("are replaced, and the process keeps running", async ({ skip }) => {
    if (!pg) return skip("needs PostgreSQL: set TEST_DATABASE_URL (the README shows how)");
    const t = await pg.create();
    const other = openDatabase(t.url);
    try {
      const pid = Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(other.db)).rows[0]!.pid);
      // The connection is idle in the pool now; end it from another session, as a restart would.
      await sql`select pg_terminate_backend(${pid})`.execute(t.handle.db);
      await new Promise((r) => setTimeout(r, 200));
      const again = await sql<{ one: number }>`select 1 as one`.execute(other.db);
      expect(Number(again.rows[0]!.one)).toBe(1);
    } finally {
      await other.close();
      await t.drop();
    }
  });
});

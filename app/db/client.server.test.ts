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

import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DEFAULT_SQLITE_PATH, describeDatabaseUrl } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { testDialects } from "#app/db/testing/test-databases.ts";

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

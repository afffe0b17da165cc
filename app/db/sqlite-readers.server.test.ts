import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteReaderDialect, SqliteReaderError, SqliteReaderPool } from "#app/db/sqlite-readers.server.ts";

interface TestDb {
  items: { id: number; name: string };
}

describe("SQLite read pool (worker threads)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-readers-"));
  const file = path.join(dir, "readers.db");
  let writer: SQLite.Database;
  let pool: SqliteReaderPool;
  let reader: Kysely<TestDb>;

  beforeAll(() => {
    writer = new SQLite(file);
    writer.pragma("journal_mode = WAL");
    writer.exec("create table items (id integer primary key, name text not null)");
    const insert = writer.prepare("insert into items (id, name) values (?, ?)");
    writer.transaction(() => {
      for (let i = 1; i <= 2000; i++) insert.run(i, `item-${i}`);
    })();
    pool = new SqliteReaderPool(file, 2);
    reader = new Kysely<TestDb>({ dialect: new SqliteReaderDialect(pool) });
  });

  afterAll(async () => {
    await reader.destroy();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers Kysely selects with the same rows the main connection reads", async () => {
    const rows = await reader.selectFrom("items").select(["id", "name"]).where("name", "like", "item-1%").orderBy("id").execute();
    const expected = writer.prepare("select id, name from items where name like 'item-1%' order by id").all();
    expect(rows).toEqual(expected);
    expect(rows.length).toBe(1111);
  });

  it("runs many statements at once across its threads, each answered with its own rows", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => i * 50 + 1);
    const rows = await Promise.all(ids.map((id) => reader.selectFrom("items").select("name").where("id", "=", id).executeTakeFirstOrThrow()));
    expect(rows.map((r) => r.name)).toEqual(ids.map((id) => `item-${id}`));
  });

  it("sees what the main connection commits", async () => {
    writer.prepare("insert into items (id, name) values (?, ?)").run(5000, "late");
    const row = await reader.selectFrom("items").select("name").where("id", "=", 5000).executeTakeFirst();
    expect(row?.name).toBe("late");
  });

  it("refuses writes and transactions, and reports SQLite's own error for a bad statement", async () => {
    await expect(sql`delete from items`.execute(reader)).rejects.toThrow(/only statements that return rows/);
    await expect(reader.transaction().execute(async () => 1)).rejects.toThrow(/no transactions/);
    const failure = await sql`select nope from items`.execute(reader).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SqliteReaderError);
    expect((failure as SqliteReaderError).message).toMatch(/no such column: nope/);
    expect(writer.prepare("select count(*) as n from items").get()).toEqual({ n: 2001 });
  });
});

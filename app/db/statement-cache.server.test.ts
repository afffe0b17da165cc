import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { statementCache } from "#app/db/statement-cache.server.ts";

describe("statementCache", () => {
  let db: SQLite.Database | undefined;
  afterEach(() => db?.close());

  const open = () => {
    db = new SQLite(":memory:");
    db.exec("create table t (n integer); insert into t values (1), (2), (3);");
    return db;
  };

  it("gives the same prepared statement for the same text, and a new one for another text", () => {
    const prepare = statementCache(open());
    const a = prepare("select n from t order by n");
    expect(prepare("select n from t order by n")).toBe(a);
    expect(prepare("select n from t order by n desc")).not.toBe(a);
    expect(a.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it("prepares a fresh statement while the kept one is still being iterated", () => {
    const prepare = statementCache(open());
    const text = "select n from t order by n";
    const streaming = prepare(text);
    const rows = streaming.iterate();
    expect(rows.next().value).toEqual({ n: 1 });
    const again = prepare(text);
    expect(again).not.toBe(streaming);
    expect(again.all()).toHaveLength(3);
    rows.return?.();
    // Once the iteration is over, the kept statement is handed out again.
    expect(prepare(text)).toBe(streaming);
  });

  it("keeps at most maxEntries texts, dropping the least recently used", () => {
    const prepare = statementCache(open(), 2);
    const one = prepare("select 1");
    const two = prepare("select 2");
    prepare("select 1");
    prepare("select 3");
    expect(prepare("select 1")).toBe(one);
    expect(prepare("select 2")).not.toBe(two);
  });
});

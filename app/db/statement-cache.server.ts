import type SQLite from "better-sqlite3";
import { Lru } from "#app/utils/lru.ts";

/**
 * Prepared statements of one SQLite connection by SQL text. better-sqlite3 compiles a statement on
 * every `prepare`, and Kysely's SQLite driver prepares each query it runs: the catalogue's few
 * shapes (the generation, stored counts, a page's rows) were compiled again for every request,
 * 2–3% of the event loop's time under mixed traffic. Least recently used texts go first, since a
 * row list of a new length is a new text.
 */
export function statementCache(db: SQLite.Database, maxEntries = 256): (sql: string) => SQLite.Statement {
  const statements = new Lru<SQLite.Statement>({ maxEntries });
  return (sql) => {
    const kept = statements.get(sql);
    // A statement still being iterated (a streamed query) cannot run again until it is done.
    if (kept && !kept.busy) return kept;
    const statement = db.prepare(sql);
    if (!kept) statements.set(sql, statement);
    return statement;
  };
}

import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "#app/db/schema.ts";
import { SqliteReaderDialect, SqliteReaderPool } from "#app/db/sqlite-readers.server.ts";
import { statementCache } from "#app/db/statement-cache.server.ts";
import { readConfig } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";

export type DialectName = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for log lines (never includes a password). */
  location: string;
  /**
   * The DATABASE_URL another thread opens this database with (the facet index is built in one),
   * or null for an in-memory SQLite, which no other connection can see.
   */
  reopenUrl: string | null;
  /**
   * The underlying SQLite connection, for the importer's bulk writes only: prepared statements
   * run inside Kysely's transaction on the same connection, without per-batch query compilation.
   */
  sqlite: SQLite.Database | null;
  /**
   * Where catalogue reads go. On a SQLite file: read-only connections in worker threads, started
   * on first use, so a long search never holds the event loop (ADR 0023). Elsewhere (PostgreSQL,
   * whose pool is already asynchronous; an in-memory SQLite; readers turned off): `db` itself.
   */
  readonly reader: Kysely<Database>;
  close(): Promise<void>;
}

/** Worker threads reading a SQLite file: two by default, so one long search leaves the other free; 0 turns them off. */
function readerThreads(): number {
  return readConfig(process.env, ["MODELYARD_SQLITE_READERS"]).MODELYARD_SQLITE_READERS;
}

export const DEFAULT_SQLITE_PATH = "./data/modelyard.db";

// int8 columns (downloads, params) fit comfortably in a double; parse them as numbers so both
// engines hand back the same JavaScript types.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export function describeDatabaseUrl(url: string | undefined): { dialect: DialectName; target: string } {
  if (!url || url.trim() === "") return { dialect: "sqlite", target: DEFAULT_SQLITE_PATH };
  if (url.startsWith("sqlite:")) {
    const p = url.slice("sqlite:".length).replace(/^\/\//, "");
    if (!p) throw new Error("DATABASE_URL 'sqlite:' needs a path, for example sqlite:./data/modelyard.db");
    return { dialect: "sqlite", target: p };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return { dialect: "postgres", target: url };
  throw new Error(
    `DATABASE_URL must be unset (SQLite at ${DEFAULT_SQLITE_PATH}), sqlite:<path>, or postgres://…; got a value starting with '${url.slice(0, 12)}'`,
  );
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}

export interface OpenOptions {
  /**
   * A reader of a database that exists (the facet index thread): SQLite opens the file read-only,
   * never creates it, and reads on this thread without reader threads of its own.
   */
  readOnly?: boolean;
}

export function openDatabase(url: string | undefined, options: OpenOptions = {}): DatabaseHandle {
  const { dialect, target } = describeDatabaseUrl(url);
  const readOnly = options.readOnly === true;
  if (dialect === "sqlite") {
    if (target !== ":memory:" && !readOnly) fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    const sqlite = new SQLite(target, readOnly ? { readonly: true, fileMustExist: true } : {});
    if (!readOnly) {
      // WAL + NORMAL: a killed process never loses a committed batch; readers never block the importer.
      sqlite.pragma("journal_mode = WAL");
      sqlite.pragma("synchronous = NORMAL");
      sqlite.pragma("foreign_keys = ON");
    }
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("cache_size = -16384");
    sqlite.pragma("temp_store = MEMORY");
    // No memory map: every page of the file the process ever read through it stays in its RSS
    // (the facet recounts scan the whole table), 220 MB of a 519 MB server. Reads go through
    // the bounded page cache above and the kernel's own cache instead.
    sqlite.pragma("mmap_size = 0");
    const cached = statementCache(sqlite);
    // SQLite rolls a transaction back by itself on some errors (a full disk, SQLITE_FULL); Kysely's
    // own rollback after it then failed with "cannot rollback - no transaction is active", and that
    // replaced the error saying what went wrong. A rollback with nothing to roll back does nothing.
    const nothing = sqlite.prepare("select 1 where 0");
    const prepare = (text: string) => (text === "rollback" && !sqlite.inTransaction ? nothing : cached(text));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: { prepare, close: () => sqlite.close() } }) });
    const threads = target === ":memory:" || readOnly ? 0 : readerThreads();
    let reader: Kysely<Database> | null = null;
    return {
      db,
      dialect,
      location: path.resolve(target),
      reopenUrl: target === ":memory:" ? null : `sqlite:${path.resolve(target)}`,
      sqlite,
      get reader() {
        if (threads === 0) return db;
        reader ??= new Kysely<Database>({ dialect: new SqliteReaderDialect(new SqliteReaderPool(path.resolve(target), threads)) });
        return reader;
      },
      close: async () => {
        await reader?.destroy();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: target, max: 10 });
  // An idle connection the server ends (a restart, an admin's terminate, a dropped test database)
  // is dropped from the pool and the next query opens a new one; without a listener, pg's 'error'
  // event would end the whole process.
  pool.on("error", (error) => log().warn(`PostgreSQL closed an idle connection: ${error.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect, location: redactUrl(target), reopenUrl: target, sqlite: null, reader: db, close: () => db.destroy() };
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";

export interface TestDatabase {
  handle: DatabaseHandle;
  url: string;
  drop(): Promise<void>;
}

export interface TestDialect {
  name: "sqlite" | "postgres";
  /** A fresh, empty database, migrated unless `migrated` is false (for tests of migrating). */
  create(options?: { migrated?: boolean }): Promise<TestDatabase>;
}

async function createPostgres(adminUrl: string, migrated = true): Promise<TestDatabase> {
  const name = `modelyard_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const handle = openDatabase(url);
  if (migrated) await migrate(handle);
  return {
    handle,
    url,
    drop: async () => {
      await handle.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function createSqlite(migrated = true): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-test-"));
  const url = `sqlite:${path.join(dir, "test.db")}`;
  const handle = openDatabase(url);
  if (migrated) await migrate(handle);
  return {
    handle,
    url,
    drop: async () => {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The engines every database test runs against: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL points at a server (each test database is created and dropped there).
 */
export function testDialects(): TestDialect[] {
  const dialects: TestDialect[] = [{ name: "sqlite", create: (o) => createSqlite(o?.migrated) }];
  const pgUrl = process.env["TEST_DATABASE_URL"];
  if (pgUrl?.startsWith("postgres")) dialects.push({ name: "postgres", create: (o) => createPostgres(pgUrl, o?.migrated) });
  return dialects;
}

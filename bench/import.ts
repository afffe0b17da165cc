/**
 * npm run bench:import — imports the 760k-row Hub list dump into a fresh database and prints
 * rows/s, wall time and peak RSS. SQLite always; PostgreSQL too when TEST_DATABASE_URL or a
 * postgres DATABASE_URL is set (it creates and fills a scratch database beside that one).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type DatabaseHandle, openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

const FILE = path.join(sharedDataDir(), "hub-models-2024-07-11.jsonl.gz");
const fmt = new Intl.NumberFormat("en-US");

/** A scratch database next to the one TEST_DATABASE_URL names; never touches that one. */
async function freshPostgres(adminUrl: string): Promise<string> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query("drop database if exists modelyard_bench_import with (force)");
  await c.query("create database modelyard_bench_import");
  await c.end();
  const u = new URL(adminUrl);
  u.pathname = "/modelyard_bench_import";
  return u.toString();
}

async function run(label: string, url: string) {
  const handle: DatabaseHandle = openDatabase(url);
  await migrate(handle);
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
  const t0 = performance.now();
  const first = await importPaths(handle, [FILE], { statsAsOf: "2024-07-11" });
  const t1 = performance.now();
  const again = await importPaths(handle, [FILE], { statsAsOf: "2024-07-11" });
  const t2 = performance.now();
  clearInterval(timer);
  await handle.close();
  const s1 = (t1 - t0) / 1000;
  const s2 = (t2 - t1) / 1000;
  console.log(
    `${label.padEnd(10)} first import: ${fmt.format(first.inserted)} rows in ${s1.toFixed(1)} s = ${fmt.format(Math.round(first.rows / s1))} rows/s | ` +
      `re-import (all unchanged: ${fmt.format(again.unchanged)}): ${s2.toFixed(1)} s = ${fmt.format(Math.round(again.rows / s2))} rows/s | peak RSS ${fmt.format(Math.round(peak / 1e6))} MB | rejected ${first.rejected}`,
  );
}

async function main() {
  if (!fs.existsSync(FILE)) throw new Error(`missing ${FILE}`);
  console.log(`bench:import — ${FILE} on ${os.cpus().length} cores, Node ${process.version}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-bench-import-"));
  try {
    await run("sqlite", `sqlite:${path.join(dir, "bench.db")}`);
    const dbFile = path.join(dir, "bench.db");
    console.log(`           database file: ${fmt.format(Math.round(fs.statSync(dbFile).size / 1e6))} MB`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const pg = process.env["TEST_DATABASE_URL"] || (process.env["DATABASE_URL"]?.startsWith("postgres") ? process.env["DATABASE_URL"] : undefined);
  if (pg) await run("postgres", await freshPostgres(pg));
  else console.log("postgres   skipped (set TEST_DATABASE_URL=postgres://… to include it)");
}

await main();

/**
 * Background jobs that must run once across every instance on one database, not once per
 * instance (ADR 0041): usage pruning, and any job like it. An instance runs a job only when it
 * claims the period in the `meta` table, in one conditional upsert that at most one instance wins
 * on either engine; on PostgreSQL it also holds a session advisory lock while the job runs
 * (pg_try_advisory_lock), so a long run is never overlapped by another instance's. SQLite needs no
 * lock: its writes are serialised, and the claim is atomic.
 */
import { type Kysely, sql } from "kysely";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import type { Database } from "#app/db/schema.ts";
import { claimPeriod } from "#app/db/queries/meta.server.ts";

// The advisory lock's first key: Modelyard's jobs, apart from any other application's locks.
const LOCK_CLASS = 0x4d59; // "MY"

/** A stable 32-bit key for a job's name (FNV-1a). */
export function jobLockKey(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * Runs `job` unless this job ran, on any instance, less than `everyMs` before `now`, or is running
 * now. Resolves with whether this call ran it.
 */
export async function runOnceAcrossInstances(handle: DatabaseHandle, name: string, everyMs: number, job: () => Promise<void>, now = Date.now()): Promise<boolean> {
  if (handle.dialect !== "postgres") {
    if (!(await claimPeriod(handle.db, `job:${name}`, now, everyMs))) return false;
    await job();
    return true;
  }
  // One pooled connection holds the session lock from try to unlock.
  return handle.db.connection().execute(async (conn) => {
    const key = jobLockKey(name);
    const got = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_CLASS}, ${key}) as locked`.execute(conn);
    if (!got.rows[0]?.locked) return false;
    try {
      if (!(await claimPeriod(conn, `job:${name}`, now, everyMs))) return false;
      await job();
      return true;
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_CLASS}, ${key})`.execute(conn);
    }
  });
}

/**
 * Runs `work` while no other instance runs work under the same name, waiting its turn: start-up
 * work that instances started at the same moment must not do at once (migrations). On PostgreSQL,
 * a session advisory lock held on one pooled connection, which `work` is given so that it runs on
 * the connection holding the lock; SQLite gets its one handle, its writes being serialised.
 */
export async function runExclusively<T>(handle: DatabaseHandle, name: string, work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  if (handle.dialect !== "postgres") return work(handle.db);
  return handle.db.connection().execute(async (conn) => {
    const key = jobLockKey(name);
    await sql`select pg_advisory_lock(${LOCK_CLASS}, ${key})`.execute(conn);
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_CLASS}, ${key})`.execute(conn);
    }
  });
}

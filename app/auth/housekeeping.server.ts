/**
 * At start: what the operator should know about access (ADR 0038). Then, hourly: usage records
 * past their retention, ended sessions and spent quota windows are deleted, a bounded batch at a
 * time, by one instance of all those on the database: whichever claims the hour first (ADR 0041).
 */
import type { Kysely } from "kysely";
import { readAuthConfig, serverHoldsKeys } from "#app/auth/auth-config.server.ts";
import { policyOverride } from "#app/auth/policy.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { countUsers, deleteExpiredSessions } from "#app/db/queries/accounts.server.ts";
import { runOnceAcrossInstances } from "#app/db/queries/job-lock.server.ts";
import { deleteCountersBefore, deleteUsageBefore } from "#app/db/queries/usage.server.ts";
import type { Database } from "#app/db/schema.ts";
import { configEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";

export async function accessStartNotes(db: Kysely<Database>): Promise<string[]> {
  const config = readAuthConfig(configEnv());
  const keys = serverHoldsKeys(configEnv());
  const notes: string[] = [];
  const override = await policyOverride(db);
  const policy = override ?? config.access;
  if (policy === "open" && keys) {
    notes.push(`Warning: the access policy is open (${override ? "set by an admin on /admin" : "MODELYARD_ACCESS=open"}) with server keys set: anyone who reaches this site can spend them. Use members (the default) unless that is what you want.`);
  }
  if (keys && policy !== "open" && !config.oidc && (await countUsers(db)) === 0) {
    notes.push("Server keys are set, but no one can sign in to use them yet. Add the first admin: npx modelyard users add you@example.com --role admin");
  }
  const how = override ? " (set by an admin on /admin)" : "";
  const oidc = config.oidc ? `; sign-in through ${new URL(config.oidc.issuer).host}` : "";
  notes.push(policy === "private" ? `Access: private${how}, every page and API needs sign-in${oidc}.` : `Access: ${policy}${how}${oidc}.`);
  return notes;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export async function pruneAccountData(db: Kysely<Database>, now = Date.now()): Promise<{ usage: number; sessions: number; counters: number }> {
  const config = readAuthConfig(configEnv());
  const usage = await deleteUsageBefore(db, new Date(now - config.usageRetentionDays * DAY_MS).toISOString());
  const sessions = await deleteExpiredSessions(db, new Date(now).toISOString());
  // A rate window is kept one window past its end (the sliding estimate reads it); days two days.
  let counters = 0;
  counters += await deleteCountersBefore(db, "rpm:", Math.floor(now / MINUTE_MS) - 2);
  counters += await deleteCountersBefore(db, "signin:", Math.floor(now / (15 * MINUTE_MS)) - 2);
  counters += await deleteCountersBefore(db, "tokens:", Math.floor(now / DAY_MS) - 2);
  counters += await deleteCountersBefore(db, "budget:", Math.floor(now / DAY_MS) - 2);
  return { usage, sessions, counters };
}

// A minute's slack, so an instance whose timer fires a little early still takes its hour.
const PRUNE_EVERY_MS = HOUR_MS - MINUTE_MS;

/**
 * Prunes soon after start and every hour, once across the instances on this database; the timers
 * never keep the process alive.
 */
export function startAccountHousekeeping(handle: () => DatabaseHandle): void {
  const run = () =>
    void runOnceAcrossInstances(handle(), "prune-account-data", PRUNE_EVERY_MS, async () => {
      await pruneAccountData(handle().db);
    }).catch((error: unknown) => log().error(`Pruning usage records failed: ${error instanceof Error ? error.message : String(error)}`));
  setTimeout(run, 30_000).unref();
  setInterval(run, HOUR_MS).unref();
}

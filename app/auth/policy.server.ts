/**
 * The access policy in force: an admin's choice on /admin, kept in the database so every instance
 * reads the same one, else MODELYARD_ACCESS. Read at most every few seconds per instance: a change
 * reaches every instance within POLICY_TTL_MS.
 */
import type { Kysely } from "kysely";
import type { AccessPolicy, AuthConfig } from "#app/auth/auth-config.server.ts";
import { deleteMeta, getMeta, setMeta } from "#app/db/queries/meta.server.ts";
import type { Database } from "#app/db/schema.ts";

const KEY = "access_policy";
export const POLICY_TTL_MS = 5_000;
const POLICIES: readonly AccessPolicy[] = ["open", "members", "private"];

let cached: { override: AccessPolicy | null; at: number; db: Kysely<Database> } | null = null;

function isPolicy(value: string | null): value is AccessPolicy {
  return value !== null && (POLICIES as readonly string[]).includes(value);
}

/** The override as last read, while fresh: undefined when a read is due (null: no override). */
export function cachedPolicy(db: Kysely<Database>, now = Date.now()): AccessPolicy | null | undefined {
  return cached && cached.db === db && now - cached.at < POLICY_TTL_MS ? cached.override : undefined;
}

/** The admin's override, or null when the environment's policy holds. */
export async function policyOverride(db: Kysely<Database>, now = Date.now()): Promise<AccessPolicy | null> {
  if (cached && cached.db === db && now - cached.at < POLICY_TTL_MS) return cached.override;
  const value = await getMeta(db, KEY);
  const override = isPolicy(value) ? value : null;
  cached = { override, at: now, db };
  return override;
}

export async function accessPolicy(db: Kysely<Database>, config: AuthConfig, now = Date.now()): Promise<AccessPolicy> {
  return (await policyOverride(db, now)) ?? config.access;
}

/** Sets (or, with null, clears) the override; this instance sees it at once, the others within the TTL. */
export async function setPolicyOverride(db: Kysely<Database>, policy: AccessPolicy | null): Promise<void> {
  if (policy === null) await deleteMeta(db, KEY);
  else await setMeta(db, KEY, policy);
  cached = null;
}

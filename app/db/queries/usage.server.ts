/**
 * Usage records of gateway calls and the counters behind quotas (migration 0009, ADR 0038). A
 * record holds who, what and how long, never a prompt or a token. Counters are fixed windows kept
 * in the database, so every instance counts against the same number.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database, UsageRecordsTable } from "#app/db/schema.ts";
import type { Insertable, Selectable } from "kysely";

type Db = Kysely<Database> | Transaction<Database>;

export type UsageRecordInput = Insertable<UsageRecordsTable>;
export type UsageRecord = Selectable<UsageRecordsTable>;

export async function insertUsageRecord(db: Db, record: UsageRecordInput): Promise<void> {
  await db.insertInto("usage_records").values(record).execute();
}

/**
 * Each provider's median time to first token for `model` over its successful streamed calls since
 * `since` (at most the newest `perProvider` of each), for the /v1 routing policy "fastest".
 */
export async function providerSpeeds(db: Db, model: string, since: string, perProvider = 50): Promise<Map<string, { medianTtftMs: number; calls: number }>> {
  const rows = await db
    .selectFrom("usage_records")
    .select(["provider", "ttft_ms"])
    .where("model", "=", model)
    .where("at", ">=", since)
    .where("status", "=", 200)
    .where("ttft_ms", "is not", null)
    .where("provider", "is not", null)
    .orderBy("at", "desc")
    .limit(perProvider * 20)
    .execute();
  const byProvider = new Map<string, number[]>();
  for (const r of rows) {
    const list = byProvider.get(r.provider!) ?? [];
    if (list.length < perProvider) list.push(Number(r.ttft_ms));
    byProvider.set(r.provider!, list);
  }
  const out = new Map<string, { medianTtftMs: number; calls: number }>();
  for (const [provider, list] of byProvider) {
    const sorted = [...list].sort((a, b) => a - b);
    out.set(provider, { medianTtftMs: sorted[Math.floor((sorted.length - 1) / 2)]!, calls: sorted.length });
  }
  return out;
}

export interface UsageFilter {
  /** Inclusive ISO time. */
  since: string;
  userId?: string;
}

/** Records, newest first, one page at a time. */
export async function listUsageRecords(db: Db, filter: UsageFilter & { offset: number; limit: number }): Promise<UsageRecord[]> {
  let q = db.selectFrom("usage_records").selectAll().where("at", ">=", filter.since);
  if (filter.userId !== undefined) q = q.where("user_id", "=", filter.userId);
  return q.orderBy("at", "desc").orderBy("id", "desc").offset(filter.offset).limit(filter.limit).execute();
}

export async function countUsageRecords(db: Db, filter: UsageFilter): Promise<number> {
  let q = db.selectFrom("usage_records").select((eb) => eb.fn.countAll<number>().as("n")).where("at", ">=", filter.since);
  if (filter.userId !== undefined) q = q.where("user_id", "=", filter.userId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export type UsageDimension = "day" | "subject" | "provider" | "model";

export interface UsageGroup {
  key: string;
  requests: number;
  errors: number;
  tokensIn: number;
  tokensOut: number;
  durationMs: number;
}

/** Totals per day, person, provider or model since a time, largest first (days in order). */
export async function usageTotals(db: Db, dimension: UsageDimension, filter: UsageFilter, limit = 50): Promise<UsageGroup[]> {
  const column = dimension === "day" ? "day" : dimension;
  let q = db
    .selectFrom("usage_records")
    .select([
      sql<string>`coalesce(${sql.ref(column)}, '(none)')`.as("key"),
      (eb) => eb.fn.countAll<number>().as("requests"),
      sql<number>`sum(case when status >= 400 then 1 else 0 end)`.as("errors"),
      sql<number>`coalesce(sum(tokens_in), 0)`.as("tokens_in"),
      sql<number>`coalesce(sum(tokens_out), 0)`.as("tokens_out"),
      sql<number>`coalesce(sum(duration_ms), 0)`.as("duration_ms"),
    ])
    .where("at", ">=", filter.since);
  if (filter.userId !== undefined) q = q.where("user_id", "=", filter.userId);
  const grouped = q.groupBy(sql.ref(column));
  const ordered = dimension === "day" ? grouped.orderBy(sql.ref(column)) : grouped.orderBy(sql`count(*)`, "desc").orderBy(sql.ref(column));
  const rows = await ordered.limit(limit).execute();
  return rows.map((r) => ({
    key: r.key,
    requests: Number(r.requests),
    errors: Number(r.errors),
    tokensIn: Number(r.tokens_in),
    tokensOut: Number(r.tokens_out),
    durationMs: Number(r.duration_ms),
  }));
}

/** How many groups `usageTotals` has for a dimension in all, so a page showing the largest few can say of how many. */
export async function countUsageGroups(db: Db, dimension: UsageDimension, filter: UsageFilter): Promise<number> {
  let q = db
    .selectFrom("usage_records")
    .select(sql<number>`count(distinct coalesce(${sql.ref(dimension)}, '(none)'))`.as("n"))
    .where("at", ">=", filter.since);
  if (filter.userId !== undefined) q = q.where("user_id", "=", filter.userId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function deleteUsageBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom("usage_records").where("at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Adds `amount` to a counter's window and returns its new value, in one statement, so two
 * instances incrementing at once both count (the row is created by whichever comes first).
 */
export async function addToCounter(db: Db, key: string, windowStart: number, amount: number): Promise<number> {
  const row = await db
    .insertInto("rate_counters")
    .values({ key, window_start: windowStart, count: amount })
    .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet({ count: sql`rate_counters.count + ${amount}` }))
    .returning("count")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Adds `amount` to a counter's window only if the total stays at most `limit`, in one statement:
 * the upsert's update is conditional, so of two instances reserving at once, only those that fit
 * are counted. Returns the new total, or null (nothing added) when it would pass the limit.
 */
export async function addToCounterWithin(db: Db, key: string, windowStart: number, amount: number, limit: number): Promise<number | null> {
  if (amount > limit) return null;
  const row = await db
    .insertInto("rate_counters")
    .values({ key, window_start: windowStart, count: amount })
    .onConflict((oc) =>
      oc
        .columns(["key", "window_start"])
        .doUpdateSet({ count: sql`rate_counters.count + ${amount}` })
        .where(sql<number>`rate_counters.count + ${amount}`, "<=", limit),
    )
    .returning("count")
    .executeTakeFirst();
  return row ? Number(row.count) : null;
}

/**
 * Takes `amount` back from a counter's window (a reservation released). Never creates a row: a
 * window already pruned has nothing left to take back.
 */
export async function subtractFromCounter(db: Db, key: string, windowStart: number, amount: number): Promise<void> {
  await db
    .updateTable("rate_counters")
    .set({ count: sql`count - ${amount}` })
    .where("key", "=", key)
    .where("window_start", "=", windowStart)
    .execute();
}

export async function readCounter(db: Db, key: string, windowStart: number): Promise<number> {
  const row = await db.selectFrom("rate_counters").select("count").where("key", "=", key).where("window_start", "=", windowStart).executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/** Drops windows that ended: a window start is in the counter's own unit, so callers pass the oldest still wanted per unit. */
export async function deleteCountersBefore(db: Db, keyPrefix: string, windowStart: number): Promise<number> {
  const result = await db.deleteFrom("rate_counters").where("key", "like", `${keyPrefix}%`).where("window_start", "<", windowStart).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Records since a time, in the order they were written (each when its call ended, so a long call
 * comes after shorter ones begun later), after the id given: for an export that new records cannot shift.
 */
export async function usageRecordsAfter(db: Db, since: string, afterId: number, limit: number): Promise<UsageRecord[]> {
  return db.selectFrom("usage_records").selectAll().where("at", ">=", since).where("id", ">", afterId).orderBy("id").limit(limit).execute();
}

import type { Kysely } from "kysely";
import { countUsageGroups, countUsageRecords, listUsageRecords, type UsageDimension, type UsageGroup, type UsageRecord, usageTotals } from "#app/db/queries/usage.server.ts";
import type { Database } from "#app/db/schema.ts";

export const RANGE_DAYS = [1, 7, 30, 90] as const;
const RECORDS_PER_PAGE = 50;
/** People, providers and models: the report lists this many with the most calls. */
export const GROUPS_SHOWN = 12;

export interface UsageReport {
  days: number;
  since: string;
  totals: Partial<Record<UsageDimension, UsageGroup[]>>;
  /** How many groups each dimension has in the range: `totals` holds only the largest of them (all days). */
  groupCounts: Partial<Record<UsageDimension, number>>;
  records: UsageRecordView[];
  page: number;
  last: number;
  count: number;
}

export interface UsageRecordView {
  at: string;
  subject: string;
  model: string | null;
  provider: string | null;
  task: string | null;
  /** The route the call came through: /api/inference (the pages' demos) or a /v1 path. */
  endpoint: string;
  paidBy: string;
  status: number;
  durationMs: number;
  ttftMs: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
}

export function recordView(r: UsageRecord): UsageRecordView {
  return {
    at: r.at,
    subject: r.subject,
    model: r.model,
    provider: r.provider,
    task: r.task,
    endpoint: r.endpoint,
    paidBy: r.paid_by,
    status: r.status,
    durationMs: r.duration_ms,
    ttftMs: r.ttft_ms,
    tokensIn: r.tokens_in,
    tokensOut: r.tokens_out,
  };
}

/** ?days= (one of RANGE_DAYS, default 30) and ?page=. */
export function reportRange(request: Request): { days: number; page: number } {
  const params = new URL(request.url).searchParams;
  const days = Number(params.get("days") ?? "30");
  const page = Number(params.get("page") ?? "1");
  return { days: (RANGE_DAYS as readonly number[]).includes(days) ? days : 30, page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1 };
}

export function sinceDays(days: number, now = Date.now()): string {
  // Whole days: "the last 7 days" starts at midnight UTC six days ago, as the per-day chart does.
  const start = new Date(now - (days - 1) * 86_400_000);
  return `${start.toISOString().slice(0, 10)}T00:00:00.000Z`;
}

export async function buildUsageReport(db: Kysely<Database>, request: Request, opts: { userId?: string; dimensions: UsageDimension[] }): Promise<UsageReport> {
  const { days, page } = reportRange(request);
  const since = sinceDays(days);
  const filter = { since, userId: opts.userId };
  const totals: Partial<Record<UsageDimension, UsageGroup[]>> = {};
  const groupCounts: Partial<Record<UsageDimension, number>> = {};
  for (const d of opts.dimensions) {
    const groups = await usageTotals(db, d, filter, d === "day" ? 400 : GROUPS_SHOWN);
    totals[d] = groups;
    groupCounts[d] = groups.length < GROUPS_SHOWN ? groups.length : await countUsageGroups(db, d, filter);
  }
  const count = await countUsageRecords(db, filter);
  const rows = await listUsageRecords(db, { ...filter, offset: (page - 1) * RECORDS_PER_PAGE, limit: RECORDS_PER_PAGE });
  return { days, since, totals, groupCounts, records: rows.map(recordView), page, last: Math.max(1, Math.ceil(count / RECORDS_PER_PAGE)), count };
}

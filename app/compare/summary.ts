/**
 * The comparison's summary: which column was fastest, and which used the fewest tokens, by the
 * figures the columns hold. A figure is compared only between columns that have it, and a column
 * is marked only when at least two have it. No provider reports a price through the gateway, so
 * there is no "cheapest" here: the page says so rather than guess one from token counts.
 */
import type { SessionMetrics } from "#app/compare/session-schema.ts";

export interface ColumnFigures {
  key: string;
  /** The latest finished run's metrics, or null (not run, failed, stopped). */
  metrics: SessionMetrics | null;
}

export interface CompareSummary {
  /** The column keys that won each figure (null when fewer than two columns have it). */
  firstToken: string | null;
  throughput: string | null;
  total: string | null;
  /** Fewest total tokens, among columns whose provider reported its usage. */
  fewestTokens: string | null;
  /** Whether any column holds a price (none do today: the summary then names no cheapest). */
  hasCost: false;
}

function best(figures: readonly ColumnFigures[], pick: (m: SessionMetrics) => number | null, better: (a: number, b: number) => boolean): string | null {
  const have = figures.flatMap((f) => {
    const v = f.metrics ? pick(f.metrics) : null;
    return v === null ? [] : [{ key: f.key, v }];
  });
  if (have.length < 2) return null;
  let winner = have[0]!;
  for (const h of have.slice(1)) if (better(h.v, winner.v)) winner = h;
  return winner.key;
}

export function summarise(figures: readonly ColumnFigures[]): CompareSummary {
  const lower = (a: number, b: number) => a < b;
  return {
    firstToken: best(figures, (m) => m.timeToFirstTokenMs, lower),
    throughput: best(figures, (m) => m.tokensPerSecond, (a, b) => a > b),
    total: best(figures, (m) => m.totalMs, lower),
    fewestTokens: best(figures, (m) => (m.usageSource === "provider" ? (m.totalTokens ?? (m.promptTokens !== null && m.completionTokens !== null ? m.promptTokens + m.completionTokens : null)) : null), lower),
    hasCost: false,
  };
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

import { describe, expect, it } from "vitest";
import type { SessionMetrics } from "#app/compare/session-schema.ts";
import { summarise } from "#app/compare/summary.ts";

const m = (p: Partial<SessionMetrics>): SessionMetrics => ({
  timeToFirstTokenMs: null,
  tokensPerSecond: null,
  totalMs: 1000,
  promptTokens: null,
  completionTokens: null,
  totalTokens: null,
  usageSource: null,
  ...p,
});

describe("comparison summary", () => {
  it("marks the fastest column by each figure, among the columns that have it", () => {
    const s = summarise([
      { key: "a", metrics: m({ timeToFirstTokenMs: 300, tokensPerSecond: 40, totalMs: 2000 }) },
      { key: "b", metrics: m({ timeToFirstTokenMs: 100, tokensPerSecond: 20, totalMs: 2500 }) },
      { key: "c", metrics: null },
    ]);
    expect(s).toEqual({ firstToken: "b", throughput: "a", total: "a", fewestTokens: null, hasCost: false });
  });

  it("names no winner from one column, and counts tokens only where the provider reported usage", () => {
    expect(summarise([{ key: "a", metrics: m({ timeToFirstTokenMs: 1 }) }]).firstToken).toBeNull();
    const s = summarise([
      { key: "a", metrics: m({ totalTokens: 10, usageSource: "counted" }) },
      { key: "b", metrics: m({ promptTokens: 5, completionTokens: 20, usageSource: "provider" }) },
      { key: "c", metrics: m({ totalTokens: 30, usageSource: "provider" }) },
    ]);
    expect(s.fewestTokens).toBe("b");
  });
});

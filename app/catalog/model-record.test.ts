import { describe, expect, it } from "vitest";
import { hasKnownCounts } from "#app/catalog/model-record.ts";

describe("hasKnownCounts", () => {
  it("trusts a snapshot's counts, zeros included, and any non-zero count", () => {
    expect(hasKnownCounts({ downloads: 0, likes: 0, statsAsOf: "2024-07-11" })).toBe(true);
    expect(hasKnownCounts({ downloads: 12, likes: 0, statsAsOf: null })).toBe(true);
    expect(hasKnownCounts({ downloads: 0, likes: 1, statsAsOf: null })).toBe(true);
  });

  it("does not take the importer's default zeros for counts (a local folder or a card)", () => {
    expect(hasKnownCounts({ downloads: 0, likes: 0, statsAsOf: null })).toBe(false);
  });
});

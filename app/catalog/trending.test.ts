import { describe, expect, it } from "vitest";
import { trendingScore } from "#app/catalog/trending.ts";

describe("trendingScore", () => {
  const asOf = "2024-07-11T00:00:00.000Z";
  it("ranks a young model with community traction above an old download giant", () => {
    const young = trendingScore({ likes: 3400, downloads: 2_900_000, createdAt: "2024-06-03T00:00:00.000Z", asOf });
    const giant = trendingScore({ likes: 195, downloads: 680_000_000, createdAt: "2022-11-14T00:00:00.000Z", asOf });
    expect(young).toBeGreaterThan(giant);
  });
  it("grows with likes and downloads and shrinks with age", () => {
    const base = { likes: 10, downloads: 10_000, createdAt: "2024-01-01T00:00:00.000Z", asOf };
    expect(trendingScore({ ...base, likes: 20 })).toBeGreaterThan(trendingScore(base));
    expect(trendingScore({ ...base, downloads: 40_000 })).toBeGreaterThan(trendingScore(base));
    expect(trendingScore({ ...base, createdAt: "2023-01-01T00:00:00.000Z" })).toBeLessThan(trendingScore(base));
  });
  it("treats an unknown creation date as a year old", () => {
    expect(trendingScore({ likes: 5, downloads: 0, createdAt: null, asOf })).toBe(
      trendingScore({ likes: 5, downloads: 0, createdAt: "2023-07-12T00:00:00.000Z", asOf }),
    );
  });
});

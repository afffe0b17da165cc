import { describe, expect, it } from "vitest";
import { formatMinuteUtc, rowDateText } from "#app/utils/format.ts";

describe("rowDateText", () => {
  const now = Date.parse("2026-11-24T12:00:00Z");
  it("gives snapshot dates absolutely: an age would count from the snapshot day", () => {
    expect(rowDateText({ lastModified: null, createdAt: "2024-06-12T08:00:00.000Z", statsAsOf: "2024-07-11" }, now)).toBe("Created 2024-06-12");
    expect(rowDateText({ lastModified: "2024-07-01T00:00:00Z", createdAt: "2024-06-12T08:00:00Z", statsAsOf: "2024-07-11" }, now)).toBe("Updated 2024-07-01");
  });
  it("gives the creation date in a list sorted by it, and the usual date when there is none", () => {
    expect(rowDateText({ lastModified: "2024-07-01T00:00:00Z", createdAt: "2024-06-12T08:00:00Z", statsAsOf: "2024-07-11" }, now, "created")).toBe("Created 2024-06-12");
    expect(rowDateText({ lastModified: "2024-07-01T00:00:00Z", createdAt: null, statsAsOf: "2024-07-11" }, now, "created")).toBe("Updated 2024-07-01");
    expect(rowDateText({ lastModified: "2024-07-01T00:00:00Z", createdAt: "2024-06-12T08:00:00Z", statsAsOf: "2024-07-11" }, now, "likes")).toBe("Updated 2024-07-01");
  });
  it("gives live dates as ages from now", () => {
    expect(rowDateText({ lastModified: null, createdAt: "2026-11-21T12:00:00Z", statsAsOf: null }, now)).toBe("Created 3 days ago");
  });
  it("says nothing when the catalogue has no date", () => {
    expect(rowDateText({ lastModified: null, createdAt: null, statsAsOf: "2024-07-11" }, now)).toBeNull();
  });
});

describe("formatMinuteUtc", () => {
  it("gives the minute in UTC and says so, whatever the offset it was written with", () => {
    expect(formatMinuteUtc("2026-11-26T16:10:37.837Z")).toBe("2026-11-26 16:10 UTC");
    expect(formatMinuteUtc("2026-11-26T18:10:00+02:00")).toBe("2026-11-26 16:10 UTC");
  });
  it("gives null for no time or one it cannot read", () => {
    expect(formatMinuteUtc(null)).toBeNull();
    expect(formatMinuteUtc("yesterday")).toBeNull();
  });
});

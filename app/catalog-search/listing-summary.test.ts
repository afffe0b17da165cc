import { describe, expect, it } from "vitest";
import { parseListingState } from "#app/catalog-search/listing-params.ts";
import { activeFilters, rangeText } from "#app/catalog-search/listing-summary.tsx";

describe("rangeText", () => {
  it("names the rows shown against the count", () => {
    expect(rangeText(1, 30, { value: 672, exact: true })).toBe("Models 1–30 of 672");
    expect(rangeText(23, 12, { value: 672, exact: true })).toBe("Models 661–672 of 672");
    expect(rangeText(2, 30, { value: 10_001, exact: false })).toBe("Models 31–60 of 10,000+");
    expect(rangeText(30, 0, { value: 672, exact: true })).toBeNull();
  });
});

describe("activeFilters", () => {
  it("gives the author a removable chip", () => {
    const { state } = parseListingState(new URLSearchParams("author=Qwen&search=coder"));
    const author = activeFilters(state).find((f) => f.key === "author");
    expect(author).toEqual({ key: "author", label: "Author: Qwen", remove: { author: null } });
  });
});

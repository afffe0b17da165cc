import { describe, expect, it } from "vitest";
import { MAX_PAGE, parseListingState } from "#app/catalog-search/listing-params.ts";
import { activeFilters, countText, pastEndText, rangeText } from "#app/catalog-search/listing-summary.tsx";

describe("rangeText", () => {
  it("names the rows shown against the count", () => {
    expect(rangeText(1, 30, { value: 672, exact: true })).toBe("Models 1–30 of 672");
    expect(rangeText(23, 12, { value: 672, exact: true })).toBe("Models 661–672 of 672");
    expect(rangeText(2, 30, { value: 10_001, exact: false })).toBe("Models 31–60 of 10,000+");
    // Exact counts from the statistics or the index are shown whole, past the collection's cap.
    expect(rangeText(2, 30, { value: 759_999, exact: true })).toBe("Models 31–60 of 759,999");
  });
});

describe("countText", () => {
  it("shows an exact count whole and a lower bound as 10,000+", () => {
    expect(countText({ value: 1, exact: true })).toBe("1 model");
    expect(countText({ value: 672, exact: true })).toBe("672 models");
    expect(countText({ value: 759_999, exact: true })).toBe("759,999 models");
    expect(countText({ value: 10_001, exact: false })).toBe("10,000+ models");
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

describe("pastEndText", () => {
  it("names the pages a view fills, or where the listing stops when it holds more", () => {
    expect(pastEndText({ value: 0, exact: true }, 1)).toBe("There are no models in this view.");
    expect(pastEndText({ value: 12, exact: true }, 1)).toBe("The 12 models in this view fill one page.");
    expect(pastEndText({ value: 5_240, exact: true }, 175)).toBe("The 5,240 models in this view fill pages 1 to 175.");
    expect(pastEndText({ value: 759_999, exact: true }, MAX_PAGE)).toBe(`The listing of the 759,999 models in this view stops at page ${MAX_PAGE}: narrow the filters to reach the rest.`);
    expect(pastEndText({ value: 10_001, exact: false }, MAX_PAGE)).toBe(`The listing of the 10,000+ models in this view stops at page ${MAX_PAGE}: narrow the filters to reach the rest.`);
  });
});

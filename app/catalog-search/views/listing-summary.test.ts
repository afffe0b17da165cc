import { describe, expect, it } from "vitest";
import { MAX_PAGE, parseListingState } from "#app/catalog-search/listing-params.ts";
import { activeFilters, countText, pastEndText, rangeText, sortNoteText } from "#app/catalog-search/views/listing-summary.tsx";

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

describe("sortNoteText", () => {
  const asOf = { from: "2024-07-11", to: "2024-07-11" };
  it("names the trending snapshot and the matches it could not rank", () => {
    expect(sortNoteText({ sort: "trending", unranked: 225, asOf }, { value: 5_240, exact: true })).toBe(
      "Trending is estimated here from the likes, downloads and ages in the 2024-07-11 snapshot. 225 of these 5,240 models have no trending score from it and come last, in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "trending", unranked: 0, asOf }, { value: 30, exact: true })).toBe("Trending is estimated here from the likes, downloads and ages in the 2024-07-11 snapshot.");
    expect(sortNoteText({ sort: "trending", unranked: 1, asOf: null }, { value: 10_001, exact: false })).toBe(
      "1 of these models has no trending score and comes last, in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "trending", unranked: 4, asOf }, { value: 4, exact: true })).toBe(
      "Trending is estimated here from the likes, downloads and ages in the 2024-07-11 snapshot. None of these models has a trending score from it: they are listed in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "trending", unranked: 0, asOf: null }, { value: 30, exact: true })).toBeNull();
  });

  it("says how many matches have an update date and how the rest are ordered", () => {
    expect(sortNoteText({ sort: "updated", unranked: 5_056, asOf: null }, { value: 5_240, exact: true })).toBe(
      "184 of these 5,240 models have an update date and come first; the other 5,056 follow in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "updated", unranked: 3, asOf: null }, { value: 3, exact: true })).toBe(
      "None of these models has an update date: they are listed in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "updated", unranked: 0, asOf: null }, { value: 3, exact: true })).toBeNull();
    expect(sortNoteText(null, { value: 3, exact: true })).toBeNull();
    expect(sortNoteText({ sort: "updated", unranked: 2, asOf: null }, { value: 0, exact: true })).toBeNull();
  });

  it("says how many matches have no counts, which rank as zero", () => {
    expect(sortNoteText({ sort: "downloads", unranked: 225, asOf: null }, { value: 5_240, exact: true })).toBe(
      "225 of these 5,240 models have no download count here and rank as zero.",
    );
    expect(sortNoteText({ sort: "likes", unranked: 1, asOf: null }, { value: 10_001, exact: false })).toBe("1 of these models has no like count here and ranks as zero.");
    expect(sortNoteText({ sort: "likes", unranked: 2, asOf: null }, { value: 2, exact: true })).toBe(
      "None of these models has a like count here: they are listed in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "downloads", unranked: 0, asOf: null }, { value: 30, exact: true })).toBeNull();
  });

  it("says how many matches have no creation date and that they come last", () => {
    expect(sortNoteText({ sort: "created", unranked: 225, asOf: null }, { value: 5_240, exact: true })).toBe(
      "5,015 of these 5,240 models have a creation date and come first; the other 225 follow in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "created", unranked: 40, asOf: null }, { value: 10_001, exact: false })).toBe(
      "40 of these models have no creation date and come last, in the order the catalogue received them.",
    );
    expect(sortNoteText({ sort: "created", unranked: 1, asOf: null }, { value: 1, exact: true })).toBe(
      "None of these models has a creation date: they are listed in the order the catalogue received them.",
    );
  });
});

import { describe, expect, it } from "vitest";
import { MAX_PAGE, clearedState, hasFilters, isPastEnd, lastPageOf, listingHref, orgHref, orgQueryToListing, parseListingState, stateToFilters } from "#app/catalog-search/listing-params.ts";

describe("parseListingState", () => {
  it("reads tag filters from the Hub's filter= and from other=", () => {
    const { state, problems } = parseListingState(new URLSearchParams("filter=gguf&other=conversational&filter=gguf"));
    expect(state.other.sort()).toEqual(["conversational", "gguf"]);
    expect(problems).toEqual([]);
  });
  it("reports unknown values instead of failing", () => {
    const { state, problems } = parseListingState(new URLSearchParams("pipeline_tag=not-a-task&language=zz-top"));
    expect(state.pipelineTag).toBeNull();
    expect(problems.length).toBe(2);
  });
  it("filters by a task @huggingface/tasks has retired but Hub rows still carry", () => {
    const { state, problems } = parseListingState(new URLSearchParams("pipeline_tag=text2text-generation"));
    expect(state.pipelineTag).toBe("text2text-generation");
    expect(problems).toEqual([]);
  });
});

describe("author", () => {
  it("reads author= into the view and writes it back", () => {
    const { state, problems } = parseListingState(new URLSearchParams("author=Qwen&sort=downloads"));
    expect(problems).toEqual([]);
    expect(state.author).toBe("Qwen");
    expect(stateToFilters(state).author).toBe("Qwen");
    expect(hasFilters(state)).toBe(true);
    expect(listingHref(state, { page: 2 })).toBe("/models?author=Qwen&sort=downloads&page=2");
    expect(listingHref(clearedState(state))).toBe("/models?sort=downloads");
  });
  it("ignores an author that is not a Hub name, and says so", () => {
    const { state, problems } = parseListingState(new URLSearchParams("author=%3Cscript%3E"));
    expect(state.author).toBeNull();
    expect(problems).toHaveLength(1);
    expect(parseListingState(new URLSearchParams("author=a..b")).state.author).toBeNull();
  });
});

describe("organisation pages", () => {
  it("keeps the author in the path, out of the query", () => {
    const { state } = parseListingState(new URLSearchParams("sort=likes&page=3"));
    expect(orgHref("Qwen", { ...state, author: "Qwen" }, { page: 2 })).toBe("/Qwen?sort=likes&page=2");
    expect(orgHref("Qwen", { ...state, author: "Qwen" }, { page: 1, sort: "trending" })).toBe("/Qwen");
  });
  it("reads the Hub's organisation-page parameters and a 1-based p", () => {
    const q = orgQueryToListing(new URLSearchParams("sort_models=modified&search_models=coder&p=2&author=someone-else"));
    const { state, problems } = parseListingState(q);
    expect(problems).toEqual([]);
    expect(state).toMatchObject({ sort: "updated", search: "coder", page: 2, author: null });
    // The listing's own names win when both are given.
    expect(parseListingState(orgQueryToListing(new URLSearchParams("sort=likes&sort_models=downloads&page=4&p=9"))).state).toMatchObject({ sort: "likes", page: 4 });
  });
});

describe("where pages end", () => {
  it("counts pages from an exact count, capped at the deepest page", () => {
    expect(lastPageOf({ value: 0, exact: true })).toBe(1);
    expect(lastPageOf({ value: 30, exact: true })).toBe(1);
    expect(lastPageOf({ value: 672, exact: true })).toBe(23);
    expect(lastPageOf({ value: 5240, exact: true })).toBe(175);
    expect(lastPageOf({ value: 10_001, exact: false })).toBe(MAX_PAGE);
    expect(lastPageOf({ value: 700_000, exact: true })).toBe(MAX_PAGE);
  });
  it("calls an empty later page, or one deeper than the listing goes, past the end", () => {
    expect(isPastEnd(1, 0)).toBe(false);
    expect(isPastEnd(30, 0)).toBe(true);
    expect(isPastEnd(23, 12)).toBe(false);
    expect(isPastEnd(MAX_PAGE + 1, 30)).toBe(true);
  });
  it("parses any positive page number, leaving the range to the count", () => {
    expect(parseListingState(new URLSearchParams("page=999")).state.page).toBe(999);
    const bad = parseListingState(new URLSearchParams("page=-3"));
    expect(bad.state.page).toBe(1);
    expect(bad.problems[0]).not.toMatch(/pages run from/);
  });
});

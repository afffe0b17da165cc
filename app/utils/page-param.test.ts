import { describe, expect, it } from "vitest";
import { parsePageParam } from "#app/utils/page-param.ts";

describe("parsePageParam", () => {
  it("reads a whole page number from 1, however far past the end", () => {
    expect(parsePageParam(null)).toEqual({ page: 1, problem: null });
    expect(parsePageParam("3")).toEqual({ page: 3, problem: null });
    expect(parsePageParam("100000")).toEqual({ page: 100_000, problem: null });
  });

  it("falls back to the first page and says why for anything else", () => {
    for (const raw of ["abc", "0", "-1", "2.5", "", "1e999"]) {
      expect(parsePageParam(raw), raw).toEqual({ page: 1, problem: `Page “${raw.slice(0, 12)}” is not a page number; showing the first page.` });
    }
    expect(parsePageParam("banana-banana-banana").problem).toBe("Page “banana-banan” is not a page number; showing the first page.");
  });
});

import { describe, expect, it } from "vitest";
import { parseListingState } from "#app/catalog/listing-params.ts";

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
});

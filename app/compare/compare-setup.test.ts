import { describe, expect, it } from "vitest";
import { compareHref, MAX_COLUMNS, parseColumnSpec, parseCompareSetup } from "#app/compare/compare-setup.ts";
import { compareTaskFor } from "#app/compare/compare-tasks.ts";

describe("compare setup in the URL", () => {
  it("reads the task and one column per model@provider, and writes the same URL back", () => {
    const url = "/compare?task=text-generation&model=org/a@together&model=org/b@fireworks-ai&model=org/c@endpoint:local";
    const { setup, problems } = parseCompareSetup(new URL(url, "http://x").searchParams);
    expect(problems).toEqual([]);
    expect(setup).toEqual({
      task: "text-generation",
      columns: [
        { modelId: "org/a", route: "together" },
        { modelId: "org/b", route: "fireworks-ai" },
        { modelId: "org/c", route: "endpoint:local" },
      ],
    });
    expect(compareHref(setup)).toBe(url);
  });

  it("drops what it cannot use, and says why", () => {
    const q = new URLSearchParams("task=nope&model=org/a&model=org/a@together&model=org/a@together&model=..@x&model=org/b@bad provider");
    const { setup, problems } = parseCompareSetup(q);
    expect(setup).toEqual({ task: "text-generation", columns: [{ modelId: "org/a", route: "together" }] });
    expect(problems).toEqual([
      "/compare does not run the task “nope”; showing chat.",
      "“org/a” is not model@provider.",
      expect.stringContaining("“..@x”: model id"),
      expect.stringContaining("provider must be a name"),
    ]);
  });

  it("holds at most six columns", () => {
    const q = new URLSearchParams(Array.from({ length: 8 }, (_, i) => `model=org/m${i}@together`).join("&"));
    const { setup, problems } = parseCompareSetup(q);
    expect(setup.columns).toHaveLength(MAX_COLUMNS);
    expect(problems).toEqual(["At most 6 columns: “org/m6@together” and any after it were left out."]);
  });

  it("parses a column spec on the last @", () => {
    expect(parseColumnSpec("org/a@b@together")).toMatchObject({ ok: false });
    expect(parseColumnSpec("gpt2@hf-inference")).toEqual({ ok: true, column: { modelId: "gpt2", route: "hf-inference" } });
  });

  it("maps a model to the comparison it can join", () => {
    expect(compareTaskFor({ pipelineTag: "text-generation", tags: ["conversational"] })).toBe("text-generation");
    expect(compareTaskFor({ pipelineTag: "image-text-to-text", tags: ["conversational"] })).toBe("text-generation");
    expect(compareTaskFor({ pipelineTag: "text-generation", tags: [] })).toBe("text-completion");
    expect(compareTaskFor({ pipelineTag: "text-generation", tags: [], inferenceProviderMapping: [{ task: "conversational" }] })).toBe("text-generation");
    expect(compareTaskFor({ pipelineTag: "image-classification", tags: [] })).toBe("image-classification");
    expect(compareTaskFor({ pipelineTag: "fill-mask", tags: [] })).toBe("fill-mask");
    expect(compareTaskFor({ pipelineTag: "text-to-speech", tags: [] })).toBe("text-to-speech");
    expect(compareTaskFor({ pipelineTag: "tabular-regression", tags: [] })).toBe("tabular-regression");
    expect(compareTaskFor({ pipelineTag: "reinforcement-learning", tags: [] })).toBeNull();
  });
});

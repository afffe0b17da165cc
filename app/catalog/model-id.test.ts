import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkModelId, MAX_MODEL_ID_LENGTH, RESERVED_ORGS, RESERVED_SEGMENTS } from "#app/catalog/model-id.ts";

describe("the Hub's model id grammar", () => {
  it("accepts real ids", () => {
    for (const id of ["gpt2", "meta-llama/Meta-Llama-3-8B-Instruct", "openai/gpt-4o-mini", "_underscore/x", "a/b.c_d-e", "Qwen/Qwen2.5-0.5B", "x".repeat(96), `${"o".repeat(96)}/${"n".repeat(96)}`]) {
      expect(checkModelId(id), id).toEqual({ ok: true, id });
    }
  });

  it("trims surrounding space", () => {
    expect(checkModelId("  gpt2 ")).toEqual({ ok: true, id: "gpt2" });
  });

  it.each([
    ["", /is empty/],
    ["../../etc/passwd", /must look like/],
    ["a/../b", /must look like/],
    ["a..b", /must not contain '\.\.'/],
    ["https://example.com/m", /must look like/],
    ["/models/m", /must look like/],
    ["a/b/c", /must look like/],
    [".hidden", /must look like/],
    ["-dash/x", /must look like/],
    ["a b", /must look like/],
    ["%", /must look like/],
    ["a/b%25", /must look like/],
    ["\u00e9t\u00e9", /must look like/],
    ["x".repeat(97), /must look like/],
    ["x".repeat(MAX_MODEL_ID_LENGTH + 1), /longer than 200/],
    ["api/foo", /reserves/],
    ["Tasks/foo", /reserves/],
    ["models", /reserves/],
    [42, /must be a string/],
    [null, /must be a string/],
  ])("rejects %j", (value, reason) => {
    const r = checkModelId(value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(reason);
  });

  it("refuses ids whose URL the site's own routes answer, and only those", () => {
    for (const s of RESERVED_SEGMENTS) expect(checkModelId(s).ok, s).toBe(false);
    for (const s of RESERVED_ORGS) expect(checkModelId(`${s}/x`).ok, s).toBe(false);
    expect(checkModelId("API/models").ok).toBe(false);
    // Real Hub ids: /playground/… and /spaces/… pages take three segments, so these stay reachable.
    expect(checkModelId("Playground/myFirstModel").ok).toBe(true);
    expect(checkModelId("spaces/x").ok).toBe(true);
    expect(checkModelId("models/x").ok).toBe(true);
  });

  it("never accepts a string with a character outside the grammar (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (s) => {
        const r = checkModelId(s);
        if (r.ok) expect(r.id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_][A-Za-z0-9._-]*)?$/);
      }),
      { seed: 12, numRuns: 2000 },
    );
  });
});

import { describe, expect, it } from "vitest";
import { buildParameters } from "#app/demos/shared/parameter-values.ts";
import type { ParameterField } from "#app/demos/shared/widget-info.ts";

const field = (name: string, kind: ParameterField["kind"], extra: Partial<ParameterField> = {}): ParameterField => ({ name, kind, description: "", min: null, max: null, options: [], default: null, ...extra });

describe("buildParameters", () => {
  const fields = [field("top_k", "integer", { min: 1 }), field("multi_label", "boolean"), field("targets", "string-list"), field("temperature", "number", { max: 2 }), field("truncation", "enum", { options: ["only_first"] })];

  it("sends only the fields the visitor set, typed by the spec", () => {
    expect(buildParameters(fields, { top_k: "3", multi_label: "false", targets: " a, b ,", temperature: "", truncation: "only_first" })).toEqual({
      ok: true,
      parameters: { top_k: 3, multi_label: false, targets: ["a", "b"], truncation: "only_first" },
    });
  });

  it("names the field that breaks the spec's type or bounds", () => {
    expect(buildParameters(fields, { top_k: "2.5" })).toEqual({ ok: false, field: "top_k", message: "top_k must be a whole number." });
    expect(buildParameters(fields, { top_k: "0" })).toMatchObject({ ok: false, field: "top_k" });
    expect(buildParameters(fields, { temperature: "3" })).toEqual({ ok: false, field: "temperature", message: "temperature must be at most 2." });
  });
});

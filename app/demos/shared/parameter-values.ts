/**
 * The parameters form's raw values (strings from inputs; "" means "not set") turned into the
 * `parameters` object of the request, typed by the spec's fields. The server checks them again
 * against the same spec; this only shapes what the visitor typed and says early what is wrong.
 */
import type { ParameterField } from "#app/demos/shared/widget-info.ts";

export type RawValues = Readonly<Record<string, string>>;

export function initialValues(fields: readonly ParameterField[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, ""]));
}

export function buildParameters(
  fields: readonly ParameterField[],
  raw: RawValues,
): { ok: true; parameters: Record<string, unknown> } | { ok: false; field: string; message: string } {
  const parameters: Record<string, unknown> = {};
  for (const f of fields) {
    const value = (raw[f.name] ?? "").trim();
    if (value === "") continue;
    switch (f.kind) {
      case "number":
      case "integer": {
        const n = Number(value);
        if (!Number.isFinite(n) || (f.kind === "integer" && !Number.isInteger(n))) {
          return { ok: false, field: f.name, message: `${f.name} must be ${f.kind === "integer" ? "a whole number" : "a number"}.` };
        }
        if (f.min !== null && n < f.min) return { ok: false, field: f.name, message: `${f.name} must be at least ${f.min}.` };
        if (f.max !== null && n > f.max) return { ok: false, field: f.name, message: `${f.name} must be at most ${f.max}.` };
        parameters[f.name] = n;
        break;
      }
      case "boolean":
        parameters[f.name] = value === "true";
        break;
      case "string-list":
        parameters[f.name] = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
        break;
      default:
        parameters[f.name] = value;
    }
  }
  return { ok: true, parameters };
}

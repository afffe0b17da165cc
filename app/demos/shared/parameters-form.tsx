/** The task's parameters as form fields (from its spec); an empty field is left to the model's default. */
import { useId } from "react";
import type { ParameterField } from "#app/demos/shared/widget-info.ts";
import type { RawValues } from "#app/demos/shared/parameter-values.ts";

export const fieldCls =
  "w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm text-gray-900 dark:border-gray-700 dark:bg-gray-900 dark:text-gray-100";

function placeholderFor(f: ParameterField): string {
  if (f.default !== null) return `default ${String(f.default)}`;
  if (f.kind === "string-list") return "comma-separated";
  return "model default";
}

export function ParametersForm({
  fields,
  values,
  onChange,
  disabled,
  label = "Parameters",
}: {
  fields: readonly ParameterField[];
  values: RawValues;
  onChange: (name: string, value: string) => void;
  disabled: boolean;
  label?: string;
}) {
  const id = useId();
  if (fields.length === 0) return null;
  return (
    <details className="rounded-md border border-gray-200 dark:border-gray-800" data-widget-parameters="">
      <summary className="cursor-pointer select-none px-3 py-2 text-sm font-medium">{label}</summary>
      <div className="grid gap-3 px-3 pb-3 sm:grid-cols-2">
        {fields.map((f) => {
          const fid = `${id}-${f.name}`;
          const value = values[f.name] ?? "";
          const set = (v: string) => onChange(f.name, v);
          return (
            <div key={f.name}>
              <label htmlFor={fid} className="mb-1 block font-mono text-xs font-medium text-gray-700 dark:text-gray-300">
                {f.name}
              </label>
              {f.kind === "enum" || f.kind === "boolean" ? (
                <select id={fid} name={f.name} value={value} onChange={(e) => set(e.target.value)} disabled={disabled} className={fieldCls} aria-describedby={`${fid}-d`}>
                  <option value="">{f.default !== null ? `default (${String(f.default)})` : "model default"}</option>
                  {(f.kind === "boolean" ? ["true", "false"] : f.options).map((o) => (
                    <option key={o} value={o}>
                      {o}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={fid}
                  name={f.name}
                  type={f.kind === "number" || f.kind === "integer" ? "number" : "text"}
                  inputMode={f.kind === "integer" ? "numeric" : f.kind === "number" ? "decimal" : undefined}
                  step={f.kind === "integer" ? 1 : f.kind === "number" ? "any" : undefined}
                  min={f.min ?? undefined}
                  max={f.max ?? undefined}
                  value={value}
                  placeholder={placeholderFor(f)}
                  onChange={(e) => set(e.target.value)}
                  disabled={disabled}
                  className={fieldCls}
                  aria-describedby={`${fid}-d`}
                />
              )}
              <p id={`${fid}-d`} className="mt-0.5 text-xs text-gray-600 dark:text-gray-400">
                {f.description}
              </p>
            </div>
          );
        })}
      </div>
    </details>
  );
}

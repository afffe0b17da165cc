import { useId } from "react";
import { fieldCls } from "#app/demos/shared/parameters-form.tsx";

/** A labelled text box for a widget's input. */
export function TextInput({ label, name, value, onChange, rows = 3, hint }: { label: string; name: string; value: string; onChange: (v: string) => void; rows?: number; hint?: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      {rows > 1 ? (
        <textarea id={id} name={name} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} className={`${fieldCls} resize-y`} aria-describedby={hint ? `${id}-h` : undefined} />
      ) : (
        <input id={id} name={name} type="text" value={value} onChange={(e) => onChange(e.target.value)} className={fieldCls} aria-describedby={hint ? `${id}-h` : undefined} />
      )}
      {hint ? (
        <p id={`${id}-h`} className="mt-0.5 text-xs text-gray-600 dark:text-gray-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** An editable table (first row: column names) with rows and columns to add or remove. */
import { fieldCls } from "#app/demos/shared/parameters-form.tsx";

const smallButton = "rounded border border-gray-300 px-2 py-1 disabled:opacity-50 dark:border-gray-700";

export function TableInput({ rows, onChange, legend = "Table (first row: column names)" }: { rows: string[][]; onChange: (rows: string[][]) => void; legend?: string }) {
  const width = rows[0]?.length ?? 0;
  const setCell = (r: number, c: number, v: string) => onChange(rows.map((row, i) => (i === r ? row.map((x, j) => (j === c ? v : x)) : row)));
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-xs font-medium text-gray-700 dark:text-gray-300">{legend}</legend>
      <div className="overflow-x-auto">
        <table className="text-xs" data-table-input="">
          <tbody>
            {rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <td key={c} className="p-0.5">
                    <input
                      aria-label={r === 0 ? `Column ${c + 1} name` : `Row ${r}, ${rows[0]?.[c] || `column ${c + 1}`}`}
                      value={cell}
                      onChange={(e) => setCell(r, c, e.target.value)}
                      className={`${fieldCls} min-w-24 ${r === 0 ? "font-semibold" : ""}`}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap gap-2 text-xs">
        <button type="button" onClick={() => onChange([...rows, Array.from({ length: width }, () => "")])} className={smallButton}>
          Add row
        </button>
        <button type="button" onClick={() => onChange(rows.map((row, i) => [...row, i === 0 ? `Column ${width + 1}` : ""]))} className={smallButton}>
          Add column
        </button>
        <button type="button" disabled={rows.length <= 2} onClick={() => onChange(rows.slice(0, -1))} className={smallButton}>
          Remove last row
        </button>
      </div>
    </fieldset>
  );
}

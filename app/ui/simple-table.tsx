/**
 * A table of strings whose first row is the header: task-guide examples, the widgets' example
 * fallback and /docs/api. Cells are monospaced unless `mono` names the columns that are (prose
 * beside names); `nowrap` names columns kept on one line.
 */
export function SimpleTable({
  rows,
  caption,
  size = "sm",
  mono,
  nowrap = [],
}: {
  rows: readonly (readonly string[])[];
  caption: string;
  size?: "sm" | "xs";
  mono?: readonly number[];
  nowrap?: readonly number[];
}) {
  const [header = [], ...body] = rows;
  return (
    // A wide table scrolls sideways on a phone; a focusable region lets a keyboard scroll it too.
    <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className={`min-w-full border-collapse text-left ${size === "xs" ? "text-xs" : "text-sm"}`}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {header.map((h, i) => (
              <th key={i} scope="col" className="border-b border-gray-300 px-2 py-1 font-semibold dark:border-gray-700">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td
                  key={c}
                  className={`border-b border-gray-200 px-2 py-1 align-top tabular-nums dark:border-gray-800${!mono || mono.includes(c) ? " font-mono" : ""}${nowrap.includes(c) ? " whitespace-nowrap" : ""}`}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Table question answering: an editable table and a question; the answer's cells marked in the table. */
import { useState } from "react";
import { tableColumns } from "#app/demos/shared/default-inputs.ts";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TableInput } from "#app/demos/shared/table-input.tsx";
import { TextInput } from "#app/demos/shared/text-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { tableAnswer } from "#app/demos/text/output-shapes.ts";
import { exampleTableAnswer } from "#app/demos/shared/example-answers.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

/** The answer, with its cells marked in the table sent (the widget's and /compare's); anything else as JSON. */
export function TableAnswerOutput({ output, rows }: { output: unknown; rows: readonly (readonly string[])[] }) {
  const a = tableAnswer(output);
  if (!a) return <RawOutput value={output} />;
  const marked = new Set(a.coordinates.map(([row, col]) => `${row + 1}:${col}`));
  return (
    <div className="space-y-2">
      <p>
        <span className="font-semibold">Answer:</span> <span data-table-answer="">{a.answer}</span>
        {a.aggregator ? <span className="ml-2 text-xs text-gray-700 dark:text-gray-300">({a.aggregator.toLowerCase()} of {a.cells.join(", ")})</span> : null}
      </p>
      <div className="overflow-x-auto">
        <table className="text-left text-xs">
          <caption className="sr-only">The table, with the answer’s cells marked</caption>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) =>
                  i === 0 ? (
                    <th key={j} scope="col" className="border-b border-gray-200 px-2 py-1 dark:border-gray-700">
                      {cell}
                    </th>
                  ) : (
                    <td key={j} data-answer-cell={marked.has(`${i}:${j}`) ? "" : undefined} className={`border-b border-gray-100 px-2 py-1 dark:border-gray-800 ${marked.has(`${i}:${j}`) ? "bg-amber-100 font-semibold text-amber-950 dark:bg-amber-900 dark:text-amber-50" : ""}`}>
                      {cell}
                      {marked.has(`${i}:${j}`) ? <span className="sr-only"> (in the answer)</span> : null}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function Widget(props: WidgetProps) {
  const [query, setQuery] = useState(props.info.inputs.text);
  const [rows, setRows] = useState<string[][]>(() => (props.info.inputs.table.length > 0 ? props.info.inputs.table : [["Column 1"], [""]]));
  const [sent, setSent] = useState<string[][]>(rows);
  return (
    <WidgetFrame
      {...props}
      build={() => {
        if (!query.trim()) return { ok: false, message: "Ask a question about the table." };
        const table = tableColumns(rows);
        if (Object.keys(table).length === 0) return { ok: false, message: "Name at least one column." };
        return { ok: true, inputs: { query, table } };
      }}
      onRun={() => setSent(rows)}
      renderExample={(ex) => {
        const a = exampleTableAnswer(ex);
        return a ? <TableAnswerOutput output={a.output} rows={a.rows} /> : null;
      }}
      render={(r) => <TableAnswerOutput output={r.kind === "json" ? r.output : null} rows={sent} />}
    >
      <TextInput label="Question" name="query" value={query} onChange={setQuery} rows={1} />
      <TableInput rows={rows} onChange={setRows} />
    </WidgetFrame>
  );
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <TableAnswerOutput output={output} rows={sent.table ?? []} />;
}

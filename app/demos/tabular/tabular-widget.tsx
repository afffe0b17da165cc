/**
 * Tabular classification and regression: an editable table in (rows × columns from the model's
 * structured data, else the task guide's), the same rows out with each one's prediction.
 */
import { useState } from "react";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TableInput } from "#app/demos/shared/table-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { formatPrediction, rowPredictions, tabularData } from "#app/demos/tabular/predictions.ts";

export function TabularWidget({ kind, ...props }: WidgetProps & { kind: "classification" | "regression" }) {
  const [rows, setRows] = useState<string[][]>(() => (props.info.inputs.table.length > 1 ? props.info.inputs.table : [["Column 1"], [""]]));
  const [sent, setSent] = useState<{ header: string[]; body: string[][] }>({ header: [], body: [] });
  const built = tabularData(rows);
  return (
    <WidgetFrame
      {...props}
      build={() => ("problem" in built ? { ok: false, message: built.problem } : { ok: true, inputs: { data: built.data } })}
      onRun={() => {
        if ("problem" in built) return;
        const header = Object.keys(built.data);
        setSent({ header, body: Array.from({ length: built.rowCount }, (_, r) => header.map((h) => built.data[h]?.[r] ?? "")) });
      }}
      render={(r) => {
        const predictions = r.kind === "json" ? rowPredictions(r.output, sent.body.length) : null;
        if (!predictions) return <RawOutput value={r.kind === "json" ? r.output : null} />;
        return (
          <div className="overflow-x-auto">
            <table className="text-left text-xs" data-tabular-predictions="">
              <caption className="sr-only">Each row with its prediction</caption>
              <thead>
                <tr>
                  {sent.header.map((h) => (
                    <th key={h} scope="col" className="border-b border-gray-200 px-2 py-1 font-semibold dark:border-gray-700">
                      {h}
                    </th>
                  ))}
                  <th scope="col" className="border-b border-gray-200 bg-indigo-50 px-2 py-1 font-semibold text-indigo-950 dark:border-gray-700 dark:bg-indigo-950 dark:text-indigo-50">
                    Prediction
                  </th>
                </tr>
              </thead>
              <tbody>
                {sent.body.map((row, i) => (
                  <tr key={i}>
                    {row.map((cell, j) => (
                      <td key={j} className="border-b border-gray-100 px-2 py-1 tabular-nums dark:border-gray-800">
                        {cell}
                      </td>
                    ))}
                    <td data-prediction="" className="border-b border-gray-100 bg-indigo-50 px-2 py-1 font-semibold tabular-nums text-indigo-950 dark:border-gray-800 dark:bg-indigo-950 dark:text-indigo-50">
                      {formatPrediction(predictions[i] ?? "", kind)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      }}
    >
      <TableInput rows={rows} onChange={setRows} legend="Rows to predict (first row: column names)" />
    </WidgetFrame>
  );
}

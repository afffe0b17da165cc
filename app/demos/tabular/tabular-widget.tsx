/**
 * Tabular classification and regression: an editable table in (rows × columns from the model's
 * structured data, else the task guide's), the same rows out with each one's prediction.
 */
import { useState } from "react";
import { RawOutput } from "#app/demos/shared/raw-output.tsx";
import { TableInput } from "#app/demos/shared/table-input.tsx";
import { WidgetFrame, type WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { formatPrediction, rowPredictions, tabularData } from "#app/demos/tabular/predictions.ts";
import { exampleTabular } from "#app/demos/shared/example-answers.ts";

/**
 * The rows sent, each with its prediction (the widget's and /compare's); anything else as JSON.
 * The prediction's column is named "Prediction" unless the caller knows its name (an example's).
 */
export function TabularPredictionsOutput({
  output,
  rows,
  kind,
  predictionHeader = "Prediction",
}: {
  output: unknown;
  rows: readonly (readonly string[])[];
  kind: "classification" | "regression";
  predictionHeader?: string;
}) {
  const built = tabularData(rows);
  if ("problem" in built) return <RawOutput value={output} />;
  const header = Object.keys(built.data);
  const body = Array.from({ length: built.rowCount }, (_, r) => header.map((h) => built.data[h]?.[r] ?? ""));
  const predictions = rowPredictions(output, body.length);
  if (!predictions) return <RawOutput value={output} />;
  return (
    // Wider than a narrow column (the model page's slot), it scrolls: focusable, so a keyboard can
    // scroll it too. A group, not a region: /compare shows several, and landmarks must differ.
    <div className="overflow-x-auto" tabIndex={0} role="group" aria-label="Rows with their predictions">
      <table className="text-left text-xs" data-tabular-predictions="">
        <caption className="sr-only">Each row with its prediction</caption>
        <thead>
          <tr>
            {header.map((h) => (
              <th key={h} scope="col" className="border-b border-gray-200 px-2 py-1 font-semibold dark:border-gray-700">
                {h}
              </th>
            ))}
            <th scope="col" className="border-b border-gray-200 bg-indigo-50 px-2 py-1 font-semibold text-indigo-950 dark:border-gray-700 dark:bg-indigo-950 dark:text-indigo-50">
              {predictionHeader}
            </th>
          </tr>
        </thead>
        <tbody>
          {body.map((row, i) => (
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
}

export function TabularWidget({ kind, ...props }: WidgetProps & { kind: "classification" | "regression" }) {
  const [rows, setRows] = useState<string[][]>(() => (props.info.inputs.table.length > 1 ? props.info.inputs.table : [["Column 1"], [""]]));
  const [sent, setSent] = useState<string[][]>([]);
  const built = tabularData(rows);
  return (
    <WidgetFrame
      {...props}
      build={() => ("problem" in built ? { ok: false, message: built.problem } : { ok: true, inputs: { data: built.data } })}
      onRun={() => setSent(rows)}
      renderExample={(ex) => {
        const t = exampleTabular(ex);
        return t ? <TabularPredictionsOutput output={t.predictions} rows={t.rows} kind={kind} predictionHeader={t.header} /> : null;
      }}
      render={(r) => <TabularPredictionsOutput output={r.kind === "json" ? r.output : null} rows={sent} kind={kind} />}
    >
      <TableInput rows={rows} onChange={setRows} legend="Rows to predict (first row: column names)" />
    </WidgetFrame>
  );
}

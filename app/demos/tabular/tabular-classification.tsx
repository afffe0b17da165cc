/** Tabular classification: a class per row of the table. */
import type { WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { TabularPredictionsOutput, TabularWidget } from "#app/demos/tabular/tabular-widget.tsx";
import type { OutputProps } from "#app/tasks/task-output.ts";

export function Widget(props: WidgetProps) {
  return <TabularWidget {...props} kind="classification" />;
}

/** The answer in a /compare column (the task record's output), drawn as this widget draws it. */
export function Output({ output, sent }: OutputProps) {
  return <TabularPredictionsOutput output={output} rows={sent.table ?? []} kind="classification" />;
}

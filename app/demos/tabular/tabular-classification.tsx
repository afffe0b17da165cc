/** Tabular classification: a class per row of the table. */
import type { WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { TabularWidget } from "#app/demos/tabular/tabular-widget.tsx";

export function Widget(props: WidgetProps) {
  return <TabularWidget {...props} kind="classification" />;
}

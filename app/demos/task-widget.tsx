/**
 * The task widget for a model, chosen by its task. Each widget is its own chunk (the task record's
 * demo module), loaded only when a page shows it, so the model page's initial JavaScript does not grow
 * with the widgets.
 */
import { type ComponentType, lazy, type LazyExoticComponent, Suspense } from "react";
import type { WidgetProps } from "#app/demos/shared/widget-frame.tsx";
import { TASKS, type WidgetTask } from "#app/tasks/task-records.ts";

type Loaded = LazyExoticComponent<ComponentType<WidgetProps>>;

// One lazy component per task for the page's life: a new one each render would load it again.
const widgets = new Map<WidgetTask, Loaded>();

function widgetFor(task: WidgetTask): Loaded {
  let widget = widgets.get(task);
  if (!widget) {
    const demo = TASKS[task].demo;
    widget = lazy(() => demo().then((m) => ({ default: m.Widget })));
    widgets.set(task, widget);
  }
  return widget;
}

export function TaskWidget(props: WidgetProps) {
  const Widget = widgetFor(props.info.task);
  return (
    <Suspense fallback={<p className="text-xs text-gray-700 dark:text-gray-300">Loading the widget…</p>}>
      <Widget {...props} />
    </Suspense>
  );
}

/**
 * How a column draws a non-chat answer (other than a label chart, which the page keeps as
 * label-scores): the `Output` of the task's demo module, loaded the first time the page shows
 * that task, so /compare's initial JavaScript does not carry every task's renderer.
 */
import { type ComponentType, lazy, type LazyExoticComponent, Suspense, useEffect } from "react";
import { COMPARE_TASKS, isCompareTask, isLabelScoreTask } from "#app/compare/compare-tasks.ts";
import type { OutputProps } from "#app/tasks/task-output.ts";

type Output = ComponentType<OutputProps>;

/** Output components already loaded, drawn without a Suspense round. */
const loaded = new Map<string, Output>();
const lazyOutputs = new Map<string, LazyExoticComponent<Output>>();
const pending = new Map<string, Promise<{ default: Output }>>();

/** Nothing for a label-score or chat task, or one this page does not run (a session from elsewhere). */
function load(task: string): Promise<{ default: Output }> | null {
  if (!isCompareTask(task) || isLabelScoreTask(task)) return null;
  const demo = COMPARE_TASKS[task].demo;
  if (!demo) return null;
  let promise = pending.get(task);
  if (!promise) {
    promise = demo().then((m) => {
      // A demo module without an Output draws nothing in a column (task-records.test.ts checks there is none).
      const Output = m.Output ?? (() => null);
      loaded.set(task, Output);
      return { default: Output };
    });
    pending.set(task, promise);
  }
  return promise;
}

/**
 * Settles once the task's output component is loaded, or could not be (a failed load shows in the
 * column through lazy(), when an answer needs it).
 */
export function preloadOutput(task: string): Promise<void> {
  return (load(task) ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Starts loading the task's output component once the page shows the task, so the answers that
 * follow are drawn at once rather than after a fetch.
 */
export function usePreloadedOutput(task: string): void {
  useEffect(() => {
    void preloadOutput(task);
  }, [task]);
}

/** A saved or live answer for the /compare `task`. */
export function CompareOutput({ task, ...props }: Omit<OutputProps, "task"> & { task: string }) {
  const mappingTask = isCompareTask(task) ? COMPARE_TASKS[task].mappingTask : task;
  const Ready = loaded.get(task);
  if (Ready) return <Ready task={mappingTask} {...props} />;
  let Lazy = lazyOutputs.get(task);
  if (!Lazy) {
    const promise = load(task);
    if (!promise) return null;
    Lazy = lazy(() => promise);
    lazyOutputs.set(task, Lazy);
  }
  return (
    <Suspense fallback={<p className="min-h-16 text-xs text-gray-700 dark:text-gray-300">Loading the answer's view…</p>}>
      <Lazy task={mappingTask} {...props} />
    </Suspense>
  );
}

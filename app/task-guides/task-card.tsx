import type { TaskColor } from "#app/catalog/task-colors.ts";
import { formatNumber } from "#app/utils/format.ts";

/** What a card needs; a serialisable subset of TaskSummary (app/catalog/tasks.server.ts). */
export interface TaskCardData {
  id: string;
  name: string;
  color: TaskColor;
  summary: string;
  subtasks: Array<{ type: string; name: string }>;
  hasGuide: boolean;
  canonicalId: string | null;
  canonicalName: string | null;
  hideInModels: boolean;
}

const SUBTASKS_SHOWN = 4;

/** Class names of one colour (COLOR_CLASSES[color]), passed in by the loader: see TaskPalette. */
export interface TaskColorClasses {
  chip: string;
  dot: string;
  accent: string;
  bar: string;
}

/**
 * COLOR_CLASSES, handed to the page by its loader. Importing app/catalog/task-colors.ts in a
 * component would ship all of @huggingface/tasks (about 200 KB) to the browser.
 */
export type TaskPalette = Record<TaskColor, TaskColorClasses>;

export function TaskCard({ task, count, palette }: { task: TaskCardData; count: number; palette: TaskPalette }) {
  const c = palette[task.color];
  const hidden = task.subtasks.length - SUBTASKS_SHOWN;
  return (
    <li
      data-task={task.id}
      data-color={task.color}
      className="flex flex-col overflow-hidden rounded-xl border border-gray-200 bg-white dark:border-gray-800 dark:bg-gray-900/40"
    >
      <div aria-hidden="true" className={`h-1.5 ${c.dot}`} />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-semibold">
          <a href={`/tasks/${task.id}`} className="hover:underline">
            {task.name}
          </a>
        </h3>
        {!task.hasGuide || task.canonicalId ? (
          <p className="flex flex-wrap gap-1.5 text-xs">
            {!task.hasGuide ? (
              <span data-badge="placeholder" className="rounded bg-gray-100 px-1.5 py-0.5 font-medium text-gray-700 dark:bg-gray-800 dark:text-gray-300">
                No guide yet
              </span>
            ) : null}
            {task.canonicalId ? (
              <span data-badge="alias" className="rounded bg-gray-100 px-1.5 py-0.5 text-gray-700 dark:bg-gray-800 dark:text-gray-300">
                Part of{" "}
                <a href={`/tasks/${task.canonicalId}`} className="font-medium underline">
                  {task.canonicalName}
                </a>
              </span>
            ) : null}
          </p>
        ) : null}
        <p className="line-clamp-2 text-sm text-gray-700 dark:text-gray-300">
          {task.summary || "The task catalogue has no guide for this task yet."}
        </p>
        {task.subtasks.length > 0 ? (
          <ul aria-label={`Subtasks of ${task.name}`} className="flex flex-wrap gap-1 text-xs">
            {task.subtasks.slice(0, SUBTASKS_SHOWN).map((s) => (
              <li key={s.type} className={`rounded px-1.5 py-0.5 ring-1 ring-inset ${c.chip}`}>
                {s.name}
              </li>
            ))}
            {hidden > 0 ? (
              <li className="px-1 py-0.5 text-gray-600 dark:text-gray-400" title={task.subtasks.slice(SUBTASKS_SHOWN).map((s) => s.name).join(", ")}>
                +{hidden} more
              </li>
            ) : null}
          </ul>
        ) : null}
        <p className="mt-auto pt-1 text-sm">
          {task.hideInModels ? (
            <span data-count={count} className="text-gray-600 dark:text-gray-400">
              {formatNumber(count)} {count === 1 ? "model" : "models"} · not a models filter
            </span>
          ) : count === 0 ? (
            // No link to a listing that would be empty.
            <span data-count={count} className="text-gray-600 dark:text-gray-400">
              0 models in this catalogue
            </span>
          ) : (
            <a
              data-count={count}
              href={`/models?pipeline_tag=${encodeURIComponent(task.id)}`}
              className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
            >
              {formatNumber(count)} {count === 1 ? "model" : "models"}
              <span className="sr-only"> for {task.name}</span>
            </a>
          )}
        </p>
      </div>
    </li>
  );
}

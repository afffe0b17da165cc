import { type CatalogModelSummary, hasKnownCounts } from "#app/catalog/model-record.ts";
import { COLOR_CLASSES, getTaskInfo } from "#app/catalog/task-colors.ts";
import { libraryLabel } from "#app/catalog/library-labels.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import { formatCompact, formatParams, rowDateText } from "#app/utils/format.ts";

/**
 * One listing row. The model link stretches over the whole row (so the row is one click target)
 * while the Spaces link sits above it: nested links are not valid HTML.
 */
export function ModelRow({ model, spaces = 0, now, sort }: { model: CatalogModelSummary; spaces?: number; now?: number; sort?: SortKey }) {
  const task = model.pipelineTag ? getTaskInfo(model.pipelineTag) : null;
  const params = formatParams(model.params);
  const date = rowDateText(model, now, sort);
  return (
    <li className="relative rounded-lg border border-gray-200 px-4 py-3 hover:border-gray-300 hover:bg-gray-50 dark:border-gray-800 dark:hover:border-gray-700 dark:hover:bg-gray-900">
      <a
        href={`/${model.id}`}
        // The id is cut to the row's width; the tooltip gives it whole.
        title={model.id}
        className="block truncate font-mono text-sm font-semibold text-gray-900 after:absolute after:inset-0 after:rounded-lg after:content-[''] dark:text-gray-100"
        data-testid="model-link"
      >
        {model.id}
      </a>
      <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600 dark:text-gray-400">
        {task && (
          <span
            data-testid="task-chip"
            className={`inline-flex items-center gap-1.5 rounded px-1.5 py-0.5 font-medium ring-1 ring-inset ${COLOR_CLASSES[task.color].chip}`}
          >
            <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${COLOR_CLASSES[task.color].dot}`} />
            {task.name}
          </span>
        )}
        {model.libraryName && <span>{libraryLabel(model.libraryName)}</span>}
        {params && <span title="Parameters">{params} params</span>}
        {date && <span>{date}</span>}
        {hasKnownCounts(model) && (
          <>
            <span title={`${model.downloads.toLocaleString("en-US")} downloads in 30 days${model.statsAsOf ? ` (snapshot of ${model.statsAsOf})` : ""}`}>
              <span aria-hidden="true">↓</span>
              <span className="sr-only">Downloads:</span> {formatCompact(model.downloads)}
            </span>
            <span title={`${model.likes.toLocaleString("en-US")} likes`}>
              <span aria-hidden="true">♥</span>
              <span className="sr-only">Likes:</span> {formatCompact(model.likes)}
            </span>
          </>
        )}
        {spaces > 0 && (
          <a
            href={`/spaces?model=${encodeURIComponent(model.id)}`}
            className="relative z-10 rounded text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {spaces === 1 ? "1 Space" : `${formatCompact(spaces)} Spaces`}
          </a>
        )}
      </div>
    </li>
  );
}

import { getTaskInfo } from "#app/catalog/task-colors.ts";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import { COLOR_CLASSES } from "#app/catalog/task-colors.ts";
import { formatAge, formatCompact, formatParams } from "#app/utils/format.ts";

/** One listing row; the whole row is a single link to the model page. */
export function ModelRow({ model }: { model: CatalogModelSummary }) {
  const task = model.pipelineTag ? getTaskInfo(model.pipelineTag) : null;
  const params = formatParams(model.params);
  const ref = model.statsAsOf ? Date.parse(model.statsAsOf) : Date.now();
  const age = formatAge(model.lastModified ?? model.createdAt, ref);
  return (
    <li>
      <a
        href={`/${model.id}`}
        className="block rounded-lg border border-gray-200 px-4 py-3 hover:border-gray-300 hover:bg-gray-50 dark:border-gray-800 dark:hover:border-gray-700 dark:hover:bg-gray-900"
      >
        <div className="truncate font-mono text-sm font-semibold text-gray-900 dark:text-gray-100">{model.id}</div>
        <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-gray-600 dark:text-gray-400">
          {task && (
            <span className={`inline-flex items-center gap-1.5 rounded px-1.5 py-0.5 font-medium ring-1 ring-inset ${COLOR_CLASSES[task.color].chip}`}>
              <span aria-hidden="true" className={`h-1.5 w-1.5 rounded-full ${COLOR_CLASSES[task.color].dot}`} />
              {task.name}
            </span>
          )}
          {model.libraryName && <span>{model.libraryName}</span>}
          {params && <span title="Parameters">{params} params</span>}
          {age && <span>{model.lastModified ? "Updated" : "Created"} {age}</span>}
          <span title={`${model.downloads.toLocaleString("en-US")} downloads in 30 days${model.statsAsOf ? ` (snapshot of ${model.statsAsOf})` : ""}`}>
            ↓ {formatCompact(model.downloads)}
          </span>
          <span title={`${model.likes.toLocaleString("en-US")} likes`}>♥ {formatCompact(model.likes)}</span>
        </div>
      </a>
    </li>
  );
}

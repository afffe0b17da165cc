import type { Route } from "./+types/_index";
import { MODALITIES, MODALITY_LABELS, TASK_INDEX } from "#app/catalog/catalog-index.generated.ts";
import { getTaskModelCounts } from "#app/db/queries/task-counts.server.ts";
import { listTasks } from "#app/task-guides/tasks.server.ts";
import { ModelRow } from "#app/catalog-search/views/model-row.tsx";
import { TaskChip } from "#app/ui/task-chip.tsx";
import { getDb } from "#app/db/db.server.ts";
import { listModelPage } from "#app/db/queries/models.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";
import { formatNumber } from "#app/utils/format.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Modelyard — browse machine-learning models, tasks and demos" },
  { name: "description", content: "A self-hosted catalogue of machine-learning models with task guides, usage code and live demos." },
];

export async function loader() {
  const { db } = getDb();
  const [total, trending, popular, taskCounts] = await Promise.all([
    countModels(db),
    listModelPage(db, { sort: "trending", offset: 0, limit: 8 }),
    listModelPage(db, { sort: "downloads", offset: 0, limit: 8 }),
    getTaskModelCounts(db),
  ]);
  // Tasks whose @huggingface/tasks entry is a placeholder have a page but no guide.
  const guides = listTasks().filter((t) => t.hasGuide).length;
  // Per modality, the tasks this catalogue has models for, most models first: a chip never leads
  // to an empty listing, and the big tasks (Text Generation) are never cut by list order.
  const tasksByModality = MODALITIES.map((mod) => {
    const held = Object.entries(TASK_INDEX)
      .filter(([id, d]) => d.modality === mod && !d.hideInModels && (taskCounts[id] ?? 0) > 0)
      .map(([id]) => ({ id, count: taskCounts[id] ?? 0 }))
      .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
    return { mod, shown: held.slice(0, 8), more: Math.max(0, held.length - 8) };
  }).filter((m) => m.shown.length > 0);
  return { total, trending, popular, guides, tasksByModality };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { total, trending, popular, guides, tasksByModality } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <section className="max-w-3xl">
        <h1 className="text-4xl font-bold tracking-tight">Find, understand and try machine-learning models</h1>
        <p className="mt-4 text-lg text-gray-600 dark:text-gray-300">
          {formatNumber(total)} models, {guides} task guides, and usage code for each library @huggingface/tasks knows — served
          from your own machine.
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href="/models" className="rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
            Browse models
          </a>
          <a
            href="/tasks"
            className="rounded-lg border border-gray-300 px-4 py-2 font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900"
          >
            Explore tasks
          </a>
        </div>
      </section>
      <div className="mt-12 grid gap-10 lg:grid-cols-2">
        {/* min-w-0: a grid item is otherwise as wide as its longest id, which the rows truncate. */}
        <section aria-labelledby="trending-heading" className="min-w-0">
          <h2 id="trending-heading" className="text-xl font-semibold">
            Trending
          </h2>
          <ul className="mt-4 space-y-2">
            {trending.map((m) => (
              <ModelRow key={m.id} model={m} />
            ))}
          </ul>
          <a href="/models?sort=trending" className="mt-3 inline-block text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            All trending models →
          </a>
        </section>
        <section aria-labelledby="popular-heading" className="min-w-0">
          <h2 id="popular-heading" className="text-xl font-semibold">
            Most downloaded
          </h2>
          <ul className="mt-4 space-y-2">
            {popular.map((m) => (
              <ModelRow key={m.id} model={m} />
            ))}
          </ul>
          <a href="/models?sort=downloads" className="mt-3 inline-block text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300">
            All models by downloads →
          </a>
        </section>
      </div>
      <section aria-labelledby="tasks-heading" className="mt-12">
        <h2 id="tasks-heading" className="text-xl font-semibold">
          Tasks
        </h2>
        <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {tasksByModality.map(({ mod, shown, more }) => (
            <div key={mod} data-home-modality={mod}>
              <h3 className="text-sm font-semibold text-gray-700 dark:text-gray-300">{MODALITY_LABELS[mod]}</h3>
              <div className="mt-2 flex flex-wrap gap-1.5">
                {shown.map(({ id, count }) => (
                  <span key={id} className="inline-flex items-center gap-1" title={`${formatNumber(count)} ${count === 1 ? "model" : "models"}`}>
                    <TaskChip task={id} />
                    <span className="text-xs tabular-nums text-gray-600 dark:text-gray-400">{formatNumber(count)}</span>
                  </span>
                ))}
                {more > 0 ? (
                  <a href="/tasks" className="text-xs text-indigo-700 underline dark:text-indigo-300">
                    {more} more
                  </a>
                ) : null}
              </div>
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}

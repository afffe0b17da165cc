import { useState } from "react";
import { Form } from "react-router";
import type { Route } from "./+types/tasks._index";
import { COLOR_CLASSES } from "#app/catalog/task-colors.ts";
import { taskMatches } from "#app/task-guides/task-search.ts";
import { listTaskGroups } from "#app/task-guides/tasks.server.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { TaskCard } from "#app/task-guides/task-card.tsx";
import { getDb } from "#app/db/db.server.ts";
import { getTaskModelCounts } from "#app/db/queries/task-counts.server.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Tasks · Modelyard" },
  { name: "description", content: "Every machine-learning task, grouped by modality, with guides, demos, example models and datasets." },
];

export async function loader({ url }: Route.LoaderArgs) {
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const counts = await getTaskModelCounts(getDb().db);
  return { groups: listTaskGroups(), counts, q, palette: COLOR_CLASSES };
}

export default function Tasks({ loaderData }: Route.ComponentProps) {
  const { groups, counts, q, palette } = loaderData;
  const [query, setQuery] = useState(q);
  const visible = groups
    .map((g) => ({ ...g, tasks: g.tasks.filter((t) => taskMatches(t, query)) }))
    .filter((g) => g.tasks.length > 0);
  const total = groups.reduce((n, g) => n + g.tasks.length, 0);
  const shown = visible.reduce((n, g) => n + g.tasks.length, 0);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight">Tasks</h1>
      <p className="mt-2 max-w-3xl text-gray-700 dark:text-gray-300">
        What machine-learning models can do, grouped by modality. Each guide explains the task, shows a demo, and lists
        models, datasets and metrics to start with.
      </p>
      <Form method="get" role="search" className="mt-6 flex max-w-xl gap-2" onSubmit={(e) => {
        // The list already follows the box; keep the URL shareable without a round trip.
        e.preventDefault();
        const url = new URL(window.location.href);
        if (query) url.searchParams.set("q", query);
        else url.searchParams.delete("q");
        window.history.replaceState(window.history.state, "", url);
      }}>
        <label htmlFor="task-filter" className="sr-only">
          Filter tasks
        </label>
        <input
          id="task-filter"
          type="search"
          name="q"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Filter tasks, e.g. image, speech, ner"
          autoComplete="off"
          className="w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900"
        />
        <button
          type="submit"
          className="rounded-lg border border-gray-300 px-3 py-2 text-sm font-medium hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-900"
        >
          Filter
        </button>
      </Form>
      <p role="status" className="mt-2 text-sm text-gray-600 dark:text-gray-400">
        {shown === total ? `${total} tasks` : `${shown} of ${total} tasks match “${query.trim()}”`}
      </p>

      {visible.map((group) => (
        <section key={group.modality} aria-labelledby={`modality-${group.modality}`} data-modality={group.modality} className="mt-8">
          <h2 id={`modality-${group.modality}`} className="text-xl font-semibold">
            {group.label}
          </h2>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {group.tasks.map((task) => (
              <TaskCard key={task.id} task={task} count={counts[task.id] ?? 0} palette={palette} />
            ))}
          </ul>
        </section>
      ))}
      {shown === 0 ? (
        <p className="mt-8 text-gray-700 dark:text-gray-300">
          No task matches. Try a shorter word, or{" "}
          <a href="/tasks" onClick={(e) => { e.preventDefault(); setQuery(""); }} className="font-medium text-indigo-700 underline dark:text-indigo-300">
            show all tasks
          </a>
          .
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

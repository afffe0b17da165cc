import type { Route } from "./+types/playground._index";
import { emptyFilters, listingHref, DEFAULT_STATE } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { getTaskInfo } from "#app/catalog/task-colors.ts";
import { getDb } from "#app/db/db.server.ts";
import { WIDGET_TASKS } from "#app/demos/widget-tasks.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { formatNumber } from "#app/utils/format.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Playground · Modelyard" },
  { name: "description", content: "Try a catalogue model live through an inference provider: open it from its page or its task's guide." },
];

/**
 * /playground on its own: the playground runs one model, at /playground/<org>/<name>. This page
 * says so and offers ways in, the catalogue's models by inference provider among them.
 */
export async function loader() {
  const { facets } = await search(await openSnapshot(getDb()), emptyFilters(), { sort: "downloads", ascending: false, offset: 0, limit: 0, counts: "facets" });
  return { providers: facets?.providers ?? [], exact: facets?.exact ?? false };
}

export default function PlaygroundIndex({ loaderData }: Route.ComponentProps) {
  const { providers, exact } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Playground</h1>
      <p className="mt-3 text-gray-700 dark:text-gray-300">
        The playground runs one model at a time, live, through an inference provider or an endpoint this server is configured with. A model’s
        page shows its demo under <strong>Try it</strong>, with a link to <strong>Open playground</strong>; a task’s guide lists models to try.
        It runs chat models and these tasks:{" "}
        {WIDGET_TASKS.map((task, i) => (
          <span key={task}>
            {i > 0 ? ", " : null}
            <a href={`/tasks/${task}`} className="underline">
              {getTaskInfo(task).name}
            </a>
          </span>
        ))}
        .
      </p>
      <h2 className="mt-8 text-lg font-semibold">Models by inference provider</h2>
      {providers.length ? (
        <>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
            What this catalogue records of each provider. A run through a provider needs your token or this server’s key.
          </p>
          <ul className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2" data-playground-providers="">
            {providers.map((p) => (
              <li key={p.value}>
                <a
                  href={listingHref({ ...DEFAULT_STATE, provider: p.value }, { page: 1 })}
                  className="flex items-baseline justify-between gap-2 rounded-lg border border-gray-200 px-3 py-2 hover:border-indigo-400 dark:border-gray-800"
                >
                  <span className="min-w-0 break-words font-medium">{p.value}</span>
                  <span className="shrink-0 text-sm tabular-nums text-gray-600 dark:text-gray-400">
                    {exact ? "" : "at least "}
                    {formatNumber(p.count)} {p.count === 1 ? "model" : "models"}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-1 text-sm text-gray-600 dark:text-gray-400" data-playground-providers="">
          This catalogue records no inference provider for any model. A model can still run here through an endpoint this server is configured
          with; its page says so.
        </p>
      )}
      <p className="mt-8 text-sm">
        Your Hugging Face token for live runs is kept in this browser only, on the{" "}
        <a href="/settings" className="underline">
          settings page
        </a>
        .
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

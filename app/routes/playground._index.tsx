import { Form, data } from "react-router";
import type { Route } from "./+types/playground._index";
import { emptyFilters, listingHref, DEFAULT_STATE } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { ListingProblems } from "#app/catalog-search/views/listing-summary.tsx";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { getTaskInfo } from "#app/catalog/task-colors.ts";
import { findPlaygroundModels } from "#app/compare/playground-models.server.ts";
import { PICKER_MAX_PAGE, PICKER_PAGE_SIZE, type PlaygroundMatches, type PlaygroundModel } from "#app/compare/playground-picker.ts";
import { getDb } from "#app/db/db.server.ts";
import { WIDGET_TASKS } from "#app/tasks/task-records.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { Pagination } from "#app/ui/pagination.tsx";
import { configEnv } from "#app/utils/env.server.ts";
import { formatNumber } from "#app/utils/format.ts";
import { parsePageParam } from "#app/utils/page-param.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Playground · Modelyard" },
  { name: "description", content: "Try a catalogue model live through an inference provider: search the models that can run here, or open one from its page or its task's guide." },
];


/**
 * /playground on its own: the playground runs one model, at /playground/<org>/<name>. This page
 * says so and offers ways in: a search of the models something here can run, and the catalogue's
 * models by inference provider.
 */
export async function loader({ url }: Route.LoaderArgs) {
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const { page, problem } = parsePageParam(url.searchParams.get("page"));
  // The picker reads no deeper than PICKER_MAX_PAGE, so a page beyond it has no models, as a page
  // past the last has: both are the 404 below, never the first page under another number.
  const noModels: PlaygroundMatches = { models: [], more: false, partial: false };
  const [{ facets }, picker] = await Promise.all([
    search(await openSnapshot(getDb()), emptyFilters(), { sort: "downloads", ascending: false, offset: 0, limit: 0, counts: "facets" }),
    page > PICKER_MAX_PAGE ? noModels : findPlaygroundModels(q, page, configEnv()),
  ]);
  // A page past the last one is not a page: 404, as the listing answers, with a way back.
  const pastEnd = page > 1 && picker.models.length === 0;
  return data({ providers: facets?.providers ?? [], exact: facets?.exact ?? false, q, page, problem, picker }, { status: pastEnd ? 404 : 200 });
}

const pickerHref = (q: string, page: number) => {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return qs ? `/playground?${qs}#pick` : "/playground#pick";
};

/** The runners named on a line: a few, then how many more (a chat model may have nine). */
function runnersText(m: PlaygroundModel): string {
  const shown = m.runners.slice(0, 3).join(", ");
  return m.runners.length > 3 ? `${shown} and ${m.runners.length - 3} more` : shown;
}

function ModelPicker({ q, page, problem, picker }: { q: string; page: number; problem: string | null; picker: Route.ComponentProps["loaderData"]["picker"] }) {
  const first = (page - 1) * PICKER_PAGE_SIZE + 1;
  return (
    <section id="pick" aria-labelledby="pick-heading" className="mt-8" data-playground-picker="">
      <h2 id="pick-heading" className="text-lg font-semibold">
        Pick a model
      </h2>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
        Models an inference provider or a configured endpoint can run here, most downloaded first. A run needs your token or this server’s key.
      </p>
      <Form method="get" action="/playground" role="search" className="mt-3 flex gap-2">
        <label htmlFor="playground-search" className="sr-only">
          Search models you can run
        </label>
        <input
          key={q}
          id="playground-search"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={200}
          autoComplete="off"
          placeholder="Search by id, e.g. llama or whisper"
          className="min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm placeholder:text-gray-500 dark:border-gray-700 dark:bg-gray-900 dark:placeholder:text-gray-400"
        />
        <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Search
        </button>
      </Form>
      <ListingProblems problems={problem ? [problem] : []} />
      {picker.models.length === 0 ? (
        <p className="mt-3 text-sm text-gray-700 dark:text-gray-300" data-playground-none="">
          {page > 1 ? (
            <>
              There is no page {formatNumber(page)} of these models.{" "}
              <a href={pickerHref(q, 1)} className="underline">
                Back to the first page
              </a>
              .
            </>
          ) : q ? (
            <>No model whose id contains “{q}” can run here. Search matches any part of a model id, such as “llama” or “bert”.</>
          ) : (
            <>No model in this catalogue can run here: none has an inference provider mapping or a configured endpoint.</>
          )}
        </p>
      ) : (
        <>
          <p className="mt-3 text-xs text-gray-600 dark:text-gray-400" data-playground-range="">
            {q ? `Matching “${q}”: ` : ""}models {formatNumber(first)}–{formatNumber(first + picker.models.length - 1)}
            {picker.more ? "" : ` of ${formatNumber(first + picker.models.length - 1)}`}
          </p>
          <ul className="mt-2 divide-y divide-gray-200 rounded-lg border border-gray-200 dark:divide-gray-800 dark:border-gray-800" data-playground-models="">
            {picker.models.map((m) => (
              <li key={m.id}>
                <a href={`/playground/${m.id}`} className="block px-3 py-2 hover:bg-gray-50 dark:hover:bg-gray-900">
                  <span className="block font-medium break-words text-indigo-700 dark:text-indigo-300">{m.id}</span>
                  <span className="block text-xs text-gray-600 dark:text-gray-400">
                    {m.kind} · {runnersText(m)}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {picker.partial ? (
        <p className="mt-2 text-xs text-gray-600 dark:text-gray-400">
          Some providers map more models than one search reads; type more of a name to find the rest.
        </p>
      ) : null}
      <Pagination page={page} last={picker.models.length === 0 ? 1 : picker.more ? page + 1 : page} more={false} href={(p) => pickerHref(q, p)} />
    </section>
  );
}

export default function PlaygroundIndex({ loaderData }: Route.ComponentProps) {
  const { providers, exact, q, page, problem, picker } = loaderData;
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
      <ModelPicker q={q} page={page} problem={problem} picker={picker} />
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

import { Form, Link, data } from "react-router";
import type { Route } from "./+types/spaces._index";
import { getTaskInfo, isPipelineType } from "#app/catalog/task-colors.ts";
import { ListingProblems } from "#app/catalog-search/views/listing-summary.tsx";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { Pagination } from "#app/ui/pagination.tsx";
import { PastEnd } from "#app/ui/past-end.tsx";
import { TaskChip } from "#app/ui/task-chip.tsx";
import { getDb } from "#app/db/db.server.ts";
import { ensureTaskSpaces, listSpaces } from "#app/db/queries/spaces.server.ts";
import { findCatalogueModelIds } from "#app/db/queries/task-counts.server.ts";
import { formatNumber } from "#app/utils/format.ts";
import { parsePageParam } from "#app/utils/page-param.ts";

const PAGE_SIZE = 30;
const MAX_PAGE = 500;

export const meta: Route.MetaFunction = () => [
  { title: "Spaces · Modelyard" },
  { name: "description", content: "Demos hosted on the Hugging Face Hub that use catalogue models or that task guides recommend." },
];

export async function loader({ url }: Route.LoaderArgs) {
  const params = url.searchParams;
  const search = (params.get("search") ?? "").trim().slice(0, 200);
  const model = (params.get("model") ?? "").trim().slice(0, 200) || null;
  const taskParam = (params.get("task") ?? "").trim();
  const task = taskParam && isPipelineType(taskParam) ? taskParam : null;
  const { page, problem: pageProblem } = parsePageParam(params.get("page"));
  const { db } = getDb();
  await ensureTaskSpaces(db);
  // A model the catalogue lacks gets no link to a model page that would be a 404.
  const modelKnown = model === null || (await findCatalogueModelIds(db, [model])).has(model);
  // Past MAX_PAGE nothing is read; the count is still what the view holds.
  const { spaces, total } = await listSpaces(db, { search: search || null, model, task, offset: (Math.min(page, MAX_PAGE + 1) - 1) * PAGE_SIZE, limit: page > MAX_PAGE ? 0 : PAGE_SIZE });
  // As on /models: a page past the last one is a 404 that says where the Spaces end, never a
  // count beside "No Spaces match".
  const pastEnd = page > 1 && spaces.length === 0;
  return data({ spaces, total, search, model, task, page, pastEnd, pageProblem, modelKnown, ignoredTask: taskParam && !task ? taskParam.slice(0, 60) : null }, { status: pastEnd ? 404 : 200 });
}

function href(q: { search: string; model: string | null; task: string | null }, page: number): string {
  const p = new URLSearchParams();
  if (q.search) p.set("search", q.search);
  if (q.model) p.set("model", q.model);
  if (q.task) p.set("task", q.task);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `/spaces?${s}` : "/spaces";
}

export default function Spaces({ loaderData }: Route.ComponentProps) {
  const { spaces, total, search, model, task, page, pastEnd, pageProblem, modelKnown, ignoredTask } = loaderData;
  const last = Math.max(1, Math.min(MAX_PAGE, Math.ceil(total / PAGE_SIZE)));
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight">Spaces</h1>
      <p className="mt-2 max-w-3xl text-gray-700 dark:text-gray-300">
        Demos hosted on the Hugging Face Hub: the ones catalogue models list as using them, and the ones task guides recommend.
        Spaces run on huggingface.co; each links out to where it lives.
      </p>
      <Form method="get" role="search" className="mt-6 flex max-w-xl gap-2">
        <label htmlFor="spaces-search" className="sr-only">
          Search Spaces
        </label>
        <input
          id="spaces-search"
          type="search"
          name="search"
          defaultValue={search}
          key={search}
          placeholder="Search Spaces by id, e.g. whisper"
          autoComplete="off"
          className="w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900"
        />
        {model && <input type="hidden" name="model" value={model} />}
        {task && <input type="hidden" name="task" value={task} />}
        <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
          Search
        </button>
      </Form>
      {(model || task || ignoredTask) && (
        <p className="mt-3 text-sm text-gray-700 dark:text-gray-300">
          {model && !modelKnown && <>There is no model “{model}” in this catalogue, so no Space here uses it. </>}
          {model && modelKnown && (
            <>
              Spaces that use{" "}
              <Link to={`/${model}`} className="font-mono text-indigo-700 hover:underline dark:text-indigo-300">
                {model}
              </Link>
              .{" "}
            </>
          )}
          {task && <>Spaces the {getTaskInfo(task).name} guide recommends. </>}
          {ignoredTask && <>Unknown task “{ignoredTask}” was ignored. </>}
          <Link to={href({ search, model: null, task: null }, 1)} className="text-indigo-700 hover:underline dark:text-indigo-300">
            Show all Spaces
          </Link>
        </p>
      )}
      <ListingProblems problems={pageProblem ? [pageProblem] : []} />
      <p className="mt-4 text-sm text-gray-600 dark:text-gray-400" data-testid="spaces-count">
        {total === 1 ? "1 Space" : `${formatNumber(total)} Spaces`}
      </p>
      {pastEnd ? (
        <div className="mt-4">
          <PastEnd
            page={page}
            lastPage={last}
            href={href({ search, model, task }, last)}
            message={
              total === 0
                ? "There are no Spaces in this view."
                : total > MAX_PAGE * PAGE_SIZE
                  ? `The listing of the ${formatNumber(total)} Spaces in this view stops at page ${formatNumber(last)}: search to reach the rest.`
                  : `The ${total === 1 ? "1 Space" : `${formatNumber(total)} Spaces`} in this view fill ${last === 1 ? "one page" : `pages 1 to ${formatNumber(last)}`}.`
            }
          />
        </div>
      ) : spaces.length === 0 ? (
        <div className="mt-4 rounded-lg border border-dashed border-gray-300 px-6 py-10 text-center dark:border-gray-700" data-testid="spaces-empty">
          {search ? (
            <>
              <p className="font-semibold">No Spaces match.</p>
              <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">Search matches any part of a Space id, such as “whisper” or “stabilityai/”.</p>
              <Link to={href({ search: "", model, task }, 1)} className="mt-4 inline-block text-sm text-indigo-700 hover:underline dark:text-indigo-300">
                Clear the search
              </Link>
            </>
          ) : (
            <>
              {/* Only a model or task filter is left: "No Spaces match" and a search hint would blame a search nobody made. */}
              <p className="font-semibold">{model ? `No Space in this catalogue uses ${model}.` : "There are no Spaces in this view."}</p>
              <Link to="/spaces" className="mt-4 inline-block text-sm text-indigo-700 hover:underline dark:text-indigo-300">
                Show all Spaces
              </Link>
            </>
          )}
        </div>
      ) : (
        <ul className="mt-4 space-y-2" data-testid="space-list">
          {spaces.map((s) => (
            <li key={s.id} className="rounded-lg border border-gray-200 px-4 py-3 dark:border-gray-800">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <Link to={`/spaces/${s.id}`} className="font-mono text-sm font-semibold hover:underline">
                  {s.id}
                </Link>
                <a href={`https://huggingface.co/spaces/${s.id}`} rel="noopener noreferrer" className="text-xs text-indigo-700 hover:underline dark:text-indigo-300">
                  Open on huggingface.co ↗
                </a>
              </div>
              {s.description && <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">{s.description}</p>}
              <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-gray-600 dark:text-gray-400">
                {s.tasks.map((t) => (
                  <TaskChip key={t} task={t} asLink={false} />
                ))}
                {s.modelCount > 0 && (
                  <span>
                    Uses {s.models.map((m, i) => (
                      <span key={m}>
                        {i > 0 && ", "}
                        <Link to={`/${m}`} className="font-mono hover:underline">
                          {m}
                        </Link>
                      </span>
                    ))}
                    {s.modelCount > s.models.length && ` and ${formatNumber(s.modelCount - s.models.length)} more`}
                  </span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {!pastEnd && <Pagination page={page} last={last} more={false} href={(p) => href({ search, model, task }, p)} />}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

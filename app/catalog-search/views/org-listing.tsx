import { Form, Link, useNavigate } from "react-router";
import { listingHref, orgHref } from "#app/catalog-search/listing-params.ts";
import type { OrgPageData } from "#app/catalog-search/views/org-page.server.ts";
import { ActiveFilterChips, EmptyResults, FilterHiddenFields, ListingProblems, SortAndSubmit, ListingPastEnd, type ViewHref, activeFilters, countText, rangeText } from "#app/catalog-search/views/listing-summary.tsx";
import { ModelRow } from "#app/catalog-search/views/model-row.tsx";
import { Pagination } from "#app/ui/pagination.tsx";
import { TaskChip } from "#app/ui/task-chip.tsx";

const linkCls = "text-indigo-700 hover:underline dark:text-indigo-300";
const fmt = new Intl.NumberFormat("en-US");

/** What the catalogue holds of the organisation beyond its list: tasks, most liked, newest, Spaces. */
function OrgOverview({ org, overview }: { org: string; overview: NonNullable<OrgPageData["overview"]> }) {
  const column = "min-w-0 space-y-1.5";
  const heading = "text-xs font-semibold tracking-wide text-gray-600 uppercase dark:text-gray-400";
  return (
    <section aria-label={`${org} at a glance`} className="mt-4 grid gap-6 border-b border-gray-200 pb-5 sm:grid-cols-2 lg:grid-cols-4 dark:border-gray-800" data-org-overview>
      <div className={column}>
        <h2 className={heading}>Models per task</h2>
        {overview.tasks.length === 0 ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">No model here names a task.</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5">
            {overview.tasks.map((t) => (
              <li key={t.task} className="inline-flex items-center gap-1">
                <a href={`/${org}?pipeline_tag=${encodeURIComponent(t.task)}`} className="hover:underline">
                  <TaskChip task={t.task} asLink={false} />
                </a>
                <span className="text-xs tabular-nums text-gray-600 dark:text-gray-400">{fmt.format(t.count)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className={column}>
        <h2 className={heading}>Most liked</h2>
        {overview.mostLiked.length === 0 ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">The catalogue holds no likes for these models.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {overview.mostLiked.map((m) => (
              <li key={m.id} className="flex justify-between gap-2">
                <a href={`/${m.id}`} className={`${linkCls} truncate font-mono`} title={m.id}>
                  {m.id.slice(org.length + 1)}
                </a>
                <span className="shrink-0 text-xs tabular-nums text-gray-600 dark:text-gray-400">♥ {fmt.format(m.likes)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className={column}>
        <h2 className={heading}>Newest</h2>
        {overview.newest.length === 0 ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">The catalogue holds no creation dates for these models.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {overview.newest.map((m) => (
              <li key={m.id} className="flex justify-between gap-2">
                <a href={`/${m.id}`} className={`${linkCls} truncate font-mono`} title={m.id}>
                  {m.id.slice(org.length + 1)}
                </a>
                <span className="shrink-0 text-xs tabular-nums text-gray-600 dark:text-gray-400">{m.createdAt.slice(0, 10)}</span>
              </li>
            ))}
          </ul>
        )}
        {overview.undated ? (
          <p className="text-xs text-gray-600 dark:text-gray-400" data-org-undated>
            {overview.undated === 1 ? "1 model has" : `${fmt.format(overview.undated)} models have`} no creation date in this catalogue and cannot be placed here.
          </p>
        ) : null}
      </div>
      <div className={column}>
        <h2 className={heading}>Spaces{overview.spaces.total > 0 ? ` (${fmt.format(overview.spaces.total)})` : ""}</h2>
        {overview.spaces.total === 0 ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">The catalogue lists no Space by {org}.</p>
        ) : (
          <ul className="space-y-1 text-sm">
            {overview.spaces.items.map((id) => (
              <li key={id} className="truncate">
                <a href={`/spaces/${id}`} className={`${linkCls} font-mono`} title={id}>
                  {id.slice(org.length + 1)}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
const field = "rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900";

/** An organisation's page: its models in the listing's rows, with a search, a sort and pages. */
export function OrgListing({ data }: { data: OrgPageData }) {
  const { org, state, problems, models, count, total, spaces, lastPage, more, pastEnd } = data;
  const navigate = useNavigate();
  const href: ViewHref = (s, patch) => orgHref(org, s, patch);
  // The org itself is the page, not a filter to remove; the other filters get chips as on /models.
  const active = activeFilters({ ...state, author: null });
  const range = rangeText(state.page, models.length, count);
  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-8" data-org-page={org}>
      <header className="border-b border-gray-200 pb-4 dark:border-gray-800">
        <p className="text-xs font-medium tracking-wide text-gray-600 uppercase dark:text-gray-400">Author</p>
        <h1 className="mt-1 font-mono text-2xl font-bold [overflow-wrap:anywhere] sm:text-3xl">{org}</h1>
        <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">
          <span data-testid="org-count">{countText(total)}</span> in this catalogue ·{" "}
          <a href={data.hubUrl} className={linkCls}>
            {org} on the Hub
          </a>{" "}
          ·{" "}
          <Link to={listingHref({ ...state, page: 1 })} className={linkCls}>
            Filter by task, library and more
          </Link>
        </p>
      </header>

      {data.overview ? <OrgOverview org={org} overview={data.overview} /> : null}

      <Form method="get" action={`/${org}`} role="search" className="mt-4 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="org-search" className="sr-only">
          Search {org}’s models
        </label>
        <input
          id="org-search"
          type="search"
          name="search"
          defaultValue={state.search}
          key={state.search}
          placeholder={`Search ${org}’s models`}
          autoComplete="off"
          maxLength={200}
          className={`min-w-0 flex-1 placeholder:text-gray-500 dark:placeholder:text-gray-400 ${field}`}
        />
        {/* Filters reached from a link (a task, a tag) carry over when the form submits. */}
        <FilterHiddenFields state={state} withAuthor={false} />
        <SortAndSubmit id="org-sort" sort={state.sort} onSort={(sort) => void navigate(href(state, { sort, page: 1 }), { preventScrollReset: true })} />
      </Form>

      <ListingProblems problems={problems} />

      <ActiveFilterChips state={state} active={active} href={href} />

      <section aria-label="Models" className="mt-6" data-testid="results" data-view={orgHref(org, state).slice(org.length + 1)}>
        <h2 className="sr-only">Models</h2>
        {pastEnd ? (
          <ListingPastEnd page={state.page} lastPage={lastPage} count={count} href={href(state, { page: lastPage })} />
        ) : models.length === 0 ? (
          <EmptyResults state={{ ...state, author: null }} href={href} />
        ) : (
          <>
            <p className="mb-2 text-xs text-gray-600 dark:text-gray-400" data-testid="result-range">
              {range}
            </p>
            <ul className="space-y-2" data-testid="model-list">
              {models.map((m) => (
                <ModelRow key={m.id} model={m} spaces={spaces[m.id] ?? 0} sort={state.sort} />
              ))}
            </ul>
          </>
        )}
        {!pastEnd && <Pagination page={state.page} last={lastPage} more={more} href={(p) => href(state, { page: p })} />}
      </section>
    </div>
  );
}

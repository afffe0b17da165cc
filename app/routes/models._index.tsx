import { useEffect, useRef, useState } from "react";
import { Form, data, useNavigate, useNavigation } from "react-router";
import type { Route } from "./+types/models._index";
import { COUNT_CAP, MAX_PAGE, clearedState, listingHref, listingSearch, parseListingState } from "#app/catalog-search/listing-params.ts";
import { SORT_KEYS } from "#app/catalog/sort-keys.ts";
import { getTaskInfo } from "#app/catalog/task-colors.ts";
import { loadListingView } from "#app/catalog-search/views/listing-page.server.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { FacetPanel } from "#app/catalog-search/views/facet-panel.tsx";
import { facetPanelHtml } from "#app/catalog-search/views/facet-panel-html.server.tsx";
import { toIsland } from "#app/utils/html-island.ts";
import { requestScope } from "#app/utils/request-context.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { modelRowsHtml } from "#app/catalog-search/views/model-rows-html.server.tsx";
import { HtmlIsland } from "#app/ui/html-island.tsx";
import { Pagination } from "#app/ui/pagination.tsx";
import { ActiveFilterChips, EmptyResults, FilterHiddenFields, ListingProblems, SortAndSubmit, SortNote, ListingPastEnd, activeFilters, countText, rangeText } from "#app/catalog-search/views/listing-summary.tsx";
import { formatNumber } from "#app/utils/format.ts";
import { yieldToEventLoop } from "#app/utils/time-slice.server.ts";

const SEARCH_DEBOUNCE_MS = 250;

export const meta: Route.MetaFunction = ({ data }) => {
  const state = data?.state;
  // The tab says which view it is: the search, the task and the page, as far as they are set.
  const title = [
    state?.search ? `“${state.search}”` : null,
    state?.pipelineTag ? `${getTaskInfo(state.pipelineTag).name} models` : "Models",
    state && state.page > 1 ? `Page ${state.page}` : null,
    "Modelyard",
  ];
  return [
    { title: title.filter((part) => part !== null).join(" · ") },
    { name: "description", content: "Browse, search and filter machine-learning models by task, library, license, language, provider and size." },
    ...(data?.pastEnd ? [{ name: "robots", content: "noindex" }] : []),
  ];
};

// Its documents are kept by what they are made of (ADR 0035): the loader returns plain data.
export const handle = { cacheDocument: true };

export async function loader({ url, context }: Route.LoaderArgs) {
  const { state, problems } = parseListingState(url.searchParams);
  const { facets, models, spaces, ...view } = await loadListingView(await openSnapshot(getDb()), state);
  // The two big parts of the page, rendered once per view and sent once (ADR 0025). A new view's
  // renders are the request's longest synchronous steps: other requests get a turn between them.
  const { islands } = context.get(requestScope);
  await yieldToEventLoop();
  const facetsHtml = toIsland(islands, facetPanelHtml(facets, state));
  await yieldToEventLoop();
  const rowsHtml = models.length ? toIsland(islands, modelRowsHtml(models, spaces, state.sort)) : null;
  // A page past the last one is not a page: 404, with the listing around a link to the last page.
  return data({ state, problems, facetsHtml, rowsHtml, shown: models.length, ...view }, { status: view.pastEnd ? 404 : 200 });
}

export default function Models({ loaderData }: Route.ComponentProps) {
  const { state, problems, shown, count, facetsHtml, rowsHtml, lastPage, more, pastEnd, coverage } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [query, setQuery] = useState(state.search);
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The first debounced search of a typing run adds a history entry; later keystrokes replace it,
  // so Back returns to the view before typing rather than stepping through every letter.
  const typing = useRef(false);

  useEffect(() => {
    // Back/forward change the URL under the box: follow it unless the visitor is typing.
    if (document.activeElement !== input.current) setQuery(state.search);
  }, [state.search]);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const onType = (value: string) => {
    setQuery(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (value.trim() === state.search) return;
      void navigate(listingHref(state, { search: value.trim(), page: 1 }), { replace: typing.current, preventScrollReset: true });
      typing.current = true;
    }, SEARCH_DEBOUNCE_MS);
  };

  const range = rangeText(state.page, shown, count);
  const active = activeFilters(state);
  const loading = navigation.state === "loading" && navigation.location.pathname === "/models";

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:py-8">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Models</h1>
        <p className="text-sm text-gray-600 dark:text-gray-400" aria-live="polite" data-testid="result-count">
          {countText(count)}
        </p>
      </div>

      <Form
        method="get"
        action="/models"
        role="search"
        className="mt-4 flex flex-col gap-2 sm:flex-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (timer.current) clearTimeout(timer.current);
          const sort = new FormData(e.currentTarget).get("sort");
          typing.current = false;
          void navigate(
            listingHref(state, { search: query.trim(), sort: SORT_KEYS.find((s) => s === sort) ?? state.sort, page: 1 }),
            { preventScrollReset: true },
          );
        }}
      >
        <label htmlFor="models-search" className="sr-only">
          Search model ids
        </label>
        <input
          ref={input}
          id="models-search"
          type="search"
          name="search"
          value={query}
          onChange={(e) => onType(e.target.value)}
          onBlur={() => (typing.current = false)}
          placeholder="Search models by id, e.g. llama or bert-base"
          autoComplete="off"
          maxLength={200}
          className="min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm placeholder:text-gray-500 dark:border-gray-700 dark:bg-gray-900 dark:placeholder:text-gray-400"
        />
        {/* Hidden fields carry the filters when the form submits without JavaScript. */}
        <FilterHiddenFields state={state} withAuthor />
        <SortAndSubmit
          id="models-sort"
          sort={state.sort}
          onSort={(sort) => void navigate(listingHref(state, { sort, search: query.trim(), page: 1 }), { preventScrollReset: true })}
        />
      </Form>

      {/* The filters come first in the page; a keyboard user reaches the first result in one step. */}
      <a href="#results" className="skip-link">
        Skip to results
      </a>
      <ListingProblems problems={problems} />

      <ActiveFilterChips state={state} active={active} href={listingHref} clearAll={listingHref(clearedState(state), { page: 1 })} />

      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <aside aria-label="Filters" className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
          {/* The facet groups' headings (h3) sit under this one, so the outline has no skipped level. */}
          <h2 className="sr-only">Filters</h2>
          {/* On small screens a checkbox toggles the panel: no JavaScript needed, one copy of the panel.
              On wide screens the panel always shows, and the checkbox is hidden with its label: no unnamed control to tab to. */}
          <input id="filters-toggle" type="checkbox" className="peer sr-only lg:hidden" />
          <label
            htmlFor="filters-toggle"
            className="flex cursor-pointer items-center justify-between rounded-lg border border-gray-200 px-3 py-2 text-sm font-medium peer-focus-visible:outline-2 peer-focus-visible:outline-indigo-500 lg:hidden dark:border-gray-800"
          >
            <span>Filters{active.length ? ` (${active.length})` : ""}</span>
            <span aria-hidden="true" className="text-gray-500">▾</span>
          </label>
          <div className="hidden peer-checked:block lg:block">
            <FacetPanel html={facetsHtml} />
          </div>
        </aside>

        <section id="results" tabIndex={-1} aria-label="Results" className={loading ? "opacity-60 transition-opacity" : undefined} data-testid="results" aria-busy={loading} data-view={listingSearch(state)}>
          {pastEnd ? (
            <ListingPastEnd page={state.page} lastPage={lastPage} count={count} href={listingHref(state, { page: lastPage })} />
          ) : !rowsHtml ? (
            <EmptyResults state={state} />
          ) : (
            <>
            {range && <p className="mb-2 text-xs text-gray-600 dark:text-gray-400" data-testid="result-range">{range}</p>}
            <SortNote coverage={coverage} count={count} />
            <HtmlIsland island={rowsHtml} />
            </>
          )}
          {!pastEnd && <Pagination page={state.page} last={lastPage} more={more} href={(p) => listingHref(state, { page: p })} />}
          {state.page === MAX_PAGE && (
            <p className="mt-3 text-center text-xs text-gray-500">Listings stop at {formatNumber(COUNT_CAP)} results: narrow the search to see more.</p>
          )}
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

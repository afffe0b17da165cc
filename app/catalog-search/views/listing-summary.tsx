import { Link } from "react-router";
import { LANGUAGE_NAMES, isLanguageCode } from "#app/catalog/languages.ts";
import { libraryLabel } from "#app/catalog/library-labels.ts";
import { COUNT_CAP, type ListingState, PAGE_SIZE, PARAM_BUCKETS, SORT_LABELS, clearedState, listingHref } from "#app/catalog-search/listing-params.ts";
import { SORT_KEYS, type SortKey } from "#app/catalog/sort-keys.ts";
import { getTaskInfo } from "#app/catalog/task-colors.ts";
import { PastEnd } from "#app/ui/past-end.tsx";
import { formatNumber } from "#app/utils/format.ts";
import type { SortCoverage } from "#app/catalog-search/views/sort-coverage.server.ts";

/** An exact count is shown whole, however large; a lower bound (a capped collection) as "10,000+". */
export function countText(count: { value: number; exact: boolean }): string {
  if (!count.exact) return `${formatNumber(COUNT_CAP)}+ models`;
  return count.value === 1 ? "1 model" : `${formatNumber(count.value)} models`;
}

/** "Models 31–60 of 672": the rows on this page, so the count and the rows can be read together. */
export function rangeText(page: number, rows: number, count: { value: number; exact: boolean }): string | null {
  if (rows === 0) return null;
  const first = (page - 1) * PAGE_SIZE + 1;
  const of = count.exact ? formatNumber(count.value) : `${formatNumber(COUNT_CAP)}+`;
  return `Models ${formatNumber(first)}–${formatNumber(first + rows - 1)} of ${of}`;
}

const RECEIVED_ORDER = "in the order the catalogue received them";

/**
 * What the sort cannot rank, in words: the snapshot the trending scores come from, and how many of
 * the matches follow the ranked ones unranked. Null when there is nothing to say.
 */
export function sortNoteText(coverage: SortCoverage | null, count: { value: number; exact: boolean }): string | null {
  if (!coverage || count.value === 0) return null;
  const { unranked } = coverage;
  const all = count.exact && unranked >= count.value;
  // "184 of these 5,240 models have", or without an exact count "184 of these models have".
  const some = (n: number, verb: [string, string]) =>
    `${formatNumber(n)} of these ${count.exact ? `${formatNumber(count.value)} ` : ""}models ${n === 1 ? verb[0] : verb[1]}`;
  if (coverage.sort === "updated" || coverage.sort === "created") {
    const date = coverage.sort === "updated" ? "update date" : "creation date";
    if (unranked === 0) return null;
    if (all) return `None of these models has ${date === "update date" ? "an" : "a"} ${date}: they are listed ${RECEIVED_ORDER}.`;
    if (!count.exact) return `${some(unranked, ["has", "have"])} no ${date} and ${unranked === 1 ? "comes" : "come"} last, ${RECEIVED_ORDER}.`;
    const dated = count.value - unranked;
    return `${some(dated, ["has", "have"])} ${date === "update date" ? "an" : "a"} ${date} and ${dated === 1 ? "comes" : "come"} first; the other ${formatNumber(unranked)} follow ${RECEIVED_ORDER}.`;
  }
  if (coverage.sort === "downloads" || coverage.sort === "likes") {
    const what = coverage.sort === "downloads" ? "download" : "like";
    if (unranked === 0) return null;
    if (all) return `None of these models has a ${what} count here: they are listed ${RECEIVED_ORDER}.`;
    return `${some(unranked, ["has", "have"])} no ${what} count here and ${unranked === 1 ? "ranks" : "rank"} as zero.`;
  }
  const { asOf } = coverage;
  // The score is this site's own estimate (app/catalog/trending.ts); a snapshot holds no ranking.
  const snapshot = asOf ? `Trending is estimated here from the likes, downloads and ages in the ${asOf.from === asOf.to ? `${asOf.from} snapshot` : `snapshots of ${asOf.from} to ${asOf.to}`}.` : null;
  if (unranked === 0) return snapshot;
  const fromIt = asOf ? (asOf.from === asOf.to ? " from it" : " from them") : "";
  const rest = all
    ? `None of these models has a trending score${fromIt}: they are listed ${RECEIVED_ORDER}.`
    : `${some(unranked, ["has", "have"])} no trending score${fromIt} and ${unranked === 1 ? "comes" : "come"} last, ${RECEIVED_ORDER}.`;
  return snapshot ? `${snapshot} ${rest}` : rest;
}

/** The sort's note above the results (see sortNoteText). */
export function SortNote({ coverage, count }: { coverage: SortCoverage | null; count: { value: number; exact: boolean } }) {
  const text = sortNoteText(coverage, count);
  if (!text) return null;
  return (
    <p className="mb-2 text-xs text-gray-600 dark:text-gray-400" data-testid="sort-note">
      {text}
    </p>
  );
}

/** Builds a link to the same view with a patch; /models and /<org> each pass their own. */
export type ViewHref = (state: ListingState, patch: Partial<ListingState>) => string;

export interface ActiveFilter {
  key: string;
  label: string;
  remove: Partial<ListingState>;
}

export function activeFilters(state: ListingState): ActiveFilter[] {
  const out: ActiveFilter[] = [];
  if (state.search) out.push({ key: "search", label: `Search: “${state.search}”`, remove: { search: "" } });
  if (state.author) out.push({ key: "author", label: `Author: ${state.author}`, remove: { author: null } });
  if (state.pipelineTag) out.push({ key: "task", label: `Task: ${getTaskInfo(state.pipelineTag).name}`, remove: { pipelineTag: null } });
  if (state.library) out.push({ key: "library", label: `Library: ${libraryLabel(state.library)}`, remove: { library: null } });
  if (state.provider) out.push({ key: "provider", label: `Provider: ${state.provider}`, remove: { provider: null } });
  if (state.params) {
    const b = PARAM_BUCKETS.find((x) => x.id === state.params);
    out.push({ key: "params", label: `Size: ${b?.label ?? `${state.params}B`}`, remove: { params: null } });
  }
  if (state.license) out.push({ key: "license", label: `License: ${state.license}`, remove: { license: null } });
  if (state.language) {
    const name = isLanguageCode(state.language) ? LANGUAGE_NAMES[state.language] : state.language;
    out.push({ key: "language", label: `Language: ${name}`, remove: { language: null } });
  }
  for (const t of state.other) out.push({ key: `tag-${t}`, label: `Tag: ${t}`, remove: { other: state.other.filter((x) => x !== t) } });
  return out;
}

/**
 * What a page past the last one shows (with a 404): where the rows end and a link to the last page,
 * so the count above never sits next to a claim that nothing matches.
 */
/** What a page past the end says of the view: the pages its rows fill, or where the listing stops. */
export function pastEndText(count: { value: number; exact: boolean }, lastPage: number): string {
  if (count.value === 0) return "There are no models in this view.";
  const total = countText(count);
  if (!count.exact || count.value > lastPage * PAGE_SIZE) return `The listing of the ${total} in this view stops at page ${formatNumber(lastPage)}: narrow the filters to reach the rest.`;
  return `The ${total} in this view fill ${lastPage === 1 ? "one page" : `pages 1 to ${formatNumber(lastPage)}`}.`;
}

export function ListingPastEnd({ page, lastPage, count, href }: { page: number; lastPage: number; count: { value: number; exact: boolean }; href: string }) {
  return <PastEnd page={page} lastPage={lastPage} message={pastEndText(count, lastPage)} href={href} />;
}

export function EmptyResults({ state, href = listingHref }: { state: ListingState; href?: ViewHref }) {
  const active = activeFilters(state);
  return (
    <div data-testid="empty-results" className="rounded-lg border border-dashed border-gray-300 px-6 py-10 text-center dark:border-gray-700">
      <h2 className="text-lg font-semibold">No models match</h2>
      <p className="mx-auto mt-2 max-w-lg text-sm text-gray-600 dark:text-gray-400">
        {state.search
          ? `No model id contains “${state.search}”${active.length > 1 ? " with the other filters applied" : ""}.`
          : "No model carries every one of these filters at once."}{" "}
        Remove a filter, or check the spelling: search matches any part of a model id, such as “llama” or “bert-base”.
      </p>
      {active.length > 1 && (
        <ul className="mt-4 flex flex-wrap justify-center gap-2">
          {active.map((f) => (
            <li key={f.key}>
              <Link to={href(state, { ...f.remove, page: 1 })} className="text-sm text-indigo-700 hover:underline dark:text-indigo-300">
                Without {f.label.toLowerCase()}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link
        to={href(clearedState(state), { page: 1 })}
        className="mt-5 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500"
        data-testid="clear-filters"
      >
        Clear all filters
      </Link>
    </div>
  );
}


/** What was wrong with the URL's parameters and was left out, above the results. */
export function ListingProblems({ problems }: { problems: readonly string[] }) {
  if (problems.length === 0) return null;
  return (
    <ul data-testid="problems" className="mt-3 space-y-1 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

/** The active filters as removable chips; `clearAll` adds a link that removes them all. */
export function ActiveFilterChips({ state, active, href, clearAll }: { state: ListingState; active: readonly ActiveFilter[]; href: ViewHref; clearAll?: string }) {
  if (active.length === 0) return null;
  return (
    <ul aria-label="Active filters" className="mt-3 flex flex-wrap items-center gap-2">
      {active.map((f) => (
        <li key={f.key}>
          <Link
            to={href(state, { ...f.remove, page: 1 })}
            preventScrollReset
            className="inline-flex items-center gap-1.5 rounded-full bg-gray-100 px-3 py-1 text-xs text-gray-800 hover:bg-gray-200 dark:bg-gray-800 dark:text-gray-200 dark:hover:bg-gray-700"
            aria-label={`Remove ${f.label}`}
          >
            {f.label} <span aria-hidden="true">✕</span>
          </Link>
        </li>
      ))}
      {clearAll !== undefined && active.length > 1 && (
        <li>
          <Link to={clearAll} className="text-xs text-indigo-700 hover:underline dark:text-indigo-300">
            Clear all
          </Link>
        </li>
      )}
    </ul>
  );
}

/**
 * Hidden fields that carry the view's filters when its search form submits without JavaScript.
 * An organisation page leaves the author out: it is the page's path, not a filter.
 */
export function FilterHiddenFields({ state, withAuthor }: { state: ListingState; withAuthor: boolean }) {
  return (
    <>
      {withAuthor && state.author && <input type="hidden" name="author" value={state.author} />}
      {state.pipelineTag && <input type="hidden" name="pipeline_tag" value={state.pipelineTag} />}
      {state.library && <input type="hidden" name="library" value={state.library} />}
      {state.license && <input type="hidden" name="license" value={state.license} />}
      {state.language && <input type="hidden" name="language" value={state.language} />}
      {state.other.map((t) => (
        <input key={t} type="hidden" name="other" value={t} />
      ))}
      {state.provider && <input type="hidden" name="inference_provider" value={state.provider} />}
      {state.params && <input type="hidden" name="params" value={state.params} />}
    </>
  );
}

/** The sort select, which applies at once with JavaScript, and the form's submit button. */
export function SortAndSubmit({ id, sort, onSort }: { id: string; sort: SortKey; onSort: (sort: SortKey) => void }) {
  return (
    <div className="flex gap-2">
      <label htmlFor={id} className="sr-only">
        Sort by
      </label>
      <select
        id={id}
        name="sort"
        value={sort}
        onChange={(e) => onSort(SORT_KEYS.find((s) => s === e.target.value) ?? "trending")}
        className="min-w-0 flex-1 rounded-lg border border-gray-300 bg-white px-2 py-2 text-sm sm:flex-none dark:border-gray-700 dark:bg-gray-900"
      >
        {SORT_KEYS.map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
      </select>
      <button type="submit" className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-500">
        Search
      </button>
    </div>
  );
}

import type { ReactNode } from "react";
import { LANGUAGE_NAMES, isLanguageCode } from "#app/catalog/languages.ts";
import { isKnownLibrary, libraryLabel } from "#app/catalog/library-labels.ts";
import { type ListingState, PARAM_BUCKETS, listingHref } from "#app/catalog-search/listing-params.ts";
import { COLOR_CLASSES, MODALITIES, getTaskInfo, isPipelineType, type TaskColor } from "#app/catalog/task-colors.ts";
import type { CatalogFacets, FacetCount } from "#app/catalog-search/facets.server.ts";
import { formatCompact, formatNumber } from "#app/utils/format.ts";

type Patch = Partial<ListingState>;

function CountBadge({ count, exact }: { count: number; exact: boolean }) {
  return (
    <span className="ml-auto shrink-0 pl-2 text-xs tabular-nums text-gray-500 dark:text-gray-400" title={`${exact ? "" : "at least "}${count.toLocaleString("en-US")} ${count === 1 ? "model" : "models"}`}>
      {exact ? "" : "≥"}
      {formatCompact(count)}
    </span>
  );
}

function FacetLink({
  state,
  patch,
  selected,
  clear,
  children,
  count,
  exact,
  testId,
}: {
  state: ListingState;
  patch: Patch;
  selected: boolean;
  clear: Patch;
  children: ReactNode;
  count: number | null;
  exact: boolean;
  testId: string;
}) {
  return (
    <li>
      <a
        href={listingHref(state, { ...(selected ? clear : patch), page: 1 })}
        aria-current={selected ? "true" : undefined}
        data-testid={testId}
        className={`flex items-center gap-2 rounded-md px-2 py-1 text-sm ${
          selected
            ? "bg-indigo-50 font-medium text-indigo-900 ring-1 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-100 dark:ring-indigo-800"
            : "text-gray-700 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-900"
        }`}
      >
        <span className="min-w-0 leading-snug break-words">{children}</span>
        {selected ? (
          <span aria-label="remove filter" className="ml-auto text-xs">
            ✕
          </span>
        ) : (
          count !== null && <CountBadge count={count} exact={exact} />
        )}
      </a>
    </li>
  );
}

/** A facet group: the first few values, the rest behind a native disclosure (works without JavaScript). */
function Group({ title, children, more, open = true, note }: { title: string; children: ReactNode; more?: ReactNode; open?: boolean; note?: ReactNode }) {
  return (
    <details open={open} className="group border-b border-gray-200 py-3 dark:border-gray-800">
      <summary className="cursor-pointer select-none text-xs font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">
        {title}
      </summary>
      {note ? <p className="mt-1 px-2 text-xs text-gray-600 dark:text-gray-400">{note}</p> : null}
      <ul className="mt-2 space-y-0.5">{children}</ul>
      {more && (
        <details className="mt-1">
          <summary className="cursor-pointer px-2 text-xs text-indigo-700 hover:underline dark:text-indigo-300">Show more</summary>
          <ul className="mt-1 space-y-0.5">{more}</ul>
        </details>
      )}
    </details>
  );
}

/** Values to list: the selected one always, even when its count is zero or it fell off the list. */
function withSelected(list: FacetCount[], selected: string[]): FacetCount[] {
  const out = [...list];
  for (const s of selected) if (!out.some((x) => x.value === s)) out.unshift({ value: s, count: 0 });
  return out;
}

function SimpleFacet({
  title,
  values,
  selected,
  state,
  patchFor,
  clearFor,
  label,
  exact,
  shown = 8,
  name,
  note,
}: {
  title: string;
  values: FacetCount[];
  selected: string[];
  state: ListingState;
  patchFor: (v: string) => Patch;
  clearFor: (v: string) => Patch;
  label: (v: string) => ReactNode;
  exact: boolean;
  shown?: number;
  name: string;
  note?: ReactNode;
}) {
  const list = withSelected(values, selected);
  if (!list.length) return null;
  const item = (f: FacetCount) => (
    <FacetLink
      key={f.value}
      state={state}
      patch={patchFor(f.value)}
      clear={clearFor(f.value)}
      selected={selected.includes(f.value)}
      count={f.count}
      exact={exact}
      testId={`facet-${name}-${f.value}`}
    >
      {label(f.value)}
    </FacetLink>
  );
  return (
    <Group title={title} note={note} more={list.length > shown ? list.slice(shown).map(item) : undefined}>
      {list.slice(0, shown).map(item)}
    </Group>
  );
}

function Dot({ color }: { color: TaskColor }) {
  return <span aria-hidden="true" className={`inline-block h-2 w-2 shrink-0 rounded-full ${COLOR_CLASSES[color].dot}`} />;
}

/** Tasks grouped by modality, in @huggingface/tasks' MODALITIES order and labels. */
function TaskFacet({ facets, state }: { facets: CatalogFacets; state: ListingState }) {
  const list = withSelected(facets.tasks, state.pipelineTag ? [state.pipelineTag] : []);
  const groups = MODALITIES.map((modality) => ({
    modality,
    tasks: list.map((f) => ({ f, info: getTaskInfo(f.value) })).filter((x) => x.info.modality === modality && !x.info.hideInModels),
  })).filter((g) => g.tasks.length > 0);
  if (!groups.length) return null;
  return (
    <details open className="border-b border-gray-200 py-3 dark:border-gray-800">
      <summary className="cursor-pointer select-none text-xs font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">Tasks</summary>
      <div className="mt-2 space-y-3">
        {groups.map((g) => (
          <div key={g.modality}>
            <h3 className="px-2 text-xs font-medium text-gray-600 dark:text-gray-400">{g.tasks[0]!.info.modalityLabel}</h3>
            <ul className="mt-1 space-y-0.5">
              {g.tasks.map(({ f, info }) => (
                <FacetLink
                  key={f.value}
                  state={state}
                  patch={{ pipelineTag: f.value }}
                  clear={{ pipelineTag: null }}
                  selected={state.pipelineTag === f.value}
                  count={f.count}
                  exact={facets.exact}
                  testId={`facet-task-${f.value}`}
                >
                  <span className="inline-flex items-center gap-2">
                    <Dot color={info.color} />
                    {info.name}
                  </span>
                </FacetLink>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </details>
  );
}

const languageName = (code: string) => (isLanguageCode(code) ? LANGUAGE_NAMES[code] : code);

/** How many of the matches the ranges can place: most list rows carry no parameter count. */
function paramsNote(facets: CatalogFacets, state: ListingState): string | null {
  if (!facets.exact || state.params) return null;
  const known = facets.params.reduce((n, b) => n + b.count, 0);
  if (known >= facets.total) return null;
  return `Known for ${formatNumber(known)} of ${formatNumber(facets.total)} models; the rest fall in no range.`;
}

/**
 * The facet groups as plain markup: no hooks and no handlers, because the server renders them once
 * per view into static HTML (facet-panel-html.server.tsx) and FacetPanel routes their clicks.
 */
export function FacetGroups({ facets, state }: { facets: CatalogFacets; state: ListingState }) {
  const bucketLabel = (id: string) => PARAM_BUCKETS.find((b) => b.id === id)?.label ?? `${id.replace("-", " – ")}B`;
  return (
    <>
      {!facets.exact && (
        <p className="mb-2 rounded-md bg-amber-50 px-2 py-1.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          Counts (≥) are from the first {formatCompact(facets.total)} matches.
        </p>
      )}
      <TaskFacet facets={facets} state={state} />
      <SimpleFacet
        name="library"
        title="Libraries"
        values={facets.libraries}
        selected={state.library ? [state.library] : []}
        state={state}
        patchFor={(v) => ({ library: v })}
        clearFor={() => ({ library: null })}
        label={libraryLabel}
        exact={facets.exact}
      />
      <SimpleFacet
        name="provider"
        title="Inference providers"
        values={facets.providers}
        selected={state.provider ? [state.provider] : []}
        state={state}
        patchFor={(v) => ({ provider: v })}
        clearFor={() => ({ provider: null })}
        label={(v) => v}
        exact={facets.exact}
        shown={6}
      />
      <SimpleFacet
        name="params"
        title="Parameters"
        values={facets.params}
        selected={state.params ? [state.params] : []}
        state={state}
        patchFor={(v) => ({ params: v })}
        clearFor={() => ({ params: null })}
        label={bucketLabel}
        exact={facets.exact}
        shown={10}
        note={paramsNote(facets, state)}
      />
      <SimpleFacet
        name="license"
        title="Licenses"
        values={facets.licenses}
        selected={state.license ? [state.license] : []}
        state={state}
        patchFor={(v) => ({ license: v })}
        clearFor={() => ({ license: null })}
        label={(v) => v}
        exact={facets.exact}
      />
      <SimpleFacet
        name="language"
        title="Languages"
        values={facets.languages}
        selected={state.language ? [state.language] : []}
        state={state}
        patchFor={(v) => ({ language: v })}
        clearFor={() => ({ language: null })}
        label={languageName}
        exact={facets.exact}
      />
      <SimpleFacet
        name="tag"
        title="Other tags"
        // Task and library names are tags too, but they have their own facets above.
        values={facets.tags.filter((t) => !isPipelineType(t.value) && !isKnownLibrary(t.value)).slice(0, 40)}
        selected={state.other}
        state={state}
        patchFor={(v) => ({ other: [...state.other, v] })}
        clearFor={(v) => ({ other: state.other.filter((t) => t !== v) })}
        label={(v) => v}
        exact={facets.exact}
        shown={10}
      />
    </>
  );
}

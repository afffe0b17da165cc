import { z } from "zod";
import { isLanguageCode } from "#app/catalog/languages.ts";
import { isCatalogueTask } from "#app/catalog/task-colors.ts";
import { SORT_KEYS, type SortKey } from "#app/catalog/sort-keys.ts";
import { parsePageParam } from "#app/utils/page-param.ts";

/**
 * The /models view state, read from and written to the URL so a copied link reproduces the view.
 * Bad values never fail the page: each is dropped and described in `problems`.
 */


export const SORT_LABELS: Record<SortKey, string> = {
  trending: "Trending",
  downloads: "Most downloads",
  likes: "Most likes",
  created: "Recently created",
  updated: "Recently updated",
};

export const PAGE_SIZE = 30;
/** Deeper than this, refining the query beats paging; it also bounds the cost of one request. */
export const MAX_OFFSET = 10_000;
export const MAX_PAGE = Math.floor(MAX_OFFSET / PAGE_SIZE) + 1;
/**
 * The plain SQL count (before the index is built) stops here, and a count past it is shown as
 * "10,000+". Counts from the in-memory index are exact and shown whole.
 */
export const COUNT_CAP = 10_000;
export const MAX_SEARCH_LENGTH = 200;

/**
 * The words of a search: an id matches when it contains every one, in any order. "whisper large"
 * finds openai/whisper-large-v3, as the Hub's search does; a single word is a substring, as before.
 */
export function searchWords(search: string): string[] {
  return [...new Set(search.toLowerCase().split(/\s+/).filter((w) => w !== ""))].slice(0, 8);
}
export const MAX_TAGS = 5;

/** Parameter-count ranges for the size facet, in billions; the upper bound is exclusive. */
export const PARAM_BUCKETS = [
  { id: "0-1", label: "< 1B", min: 0, max: 1e9 },
  { id: "1-3", label: "1B – 3B", min: 1e9, max: 3e9 },
  { id: "3-6", label: "3B – 6B", min: 3e9, max: 6e9 },
  { id: "6-9", label: "6B – 9B", min: 6e9, max: 9e9 },
  { id: "9-12", label: "9B – 12B", min: 9e9, max: 12e9 },
  { id: "12-24", label: "12B – 24B", min: 12e9, max: 24e9 },
  { id: "24-32", label: "24B – 32B", min: 24e9, max: 32e9 },
  { id: "32-64", label: "32B – 64B", min: 32e9, max: 64e9 },
  { id: "64-128", label: "64B – 128B", min: 64e9, max: 128e9 },
  { id: "128-", label: "≥ 128B", min: 128e9, max: null },
] as const satisfies ReadonlyArray<{ id: string; label: string; min: number; max: number | null }>;

/** What narrows the set of models; shared by the page, the API and the queries. */
export interface CatalogFilters {
  search: string | null;
  author: string | null;
  pipelineTag: string | null;
  license: string | null;
  /**
   * Every tag must be present (AND). Language codes are tags, and so is a library: as on the Hub,
   * `library=gguf` is the `gguf` tag, which every record whose library_name is gguf also carries
   * (and 1,500 GGUF repos named for transformers or nothing do too).
   */
  tags: string[];
  provider: string | null;
  paramsMin: number | null;
  paramsMax: number | null;
}

export interface ListingState {
  search: string;
  /** A user or organisation; on /<org> it comes from the path and stays out of the query. */
  author: string | null;
  pipelineTag: string | null;
  library: string | null;
  license: string | null;
  language: string | null;
  other: string[];
  provider: string | null;
  params: string | null;
  sort: SortKey;
  page: number;
}

export const DEFAULT_STATE: ListingState = {
  search: "",
  author: null,
  pipelineTag: null,
  library: null,
  license: null,
  language: null,
  other: [],
  provider: null,
  params: null,
  sort: "trending",
  page: 1,
};

const slug = z.string().trim().min(1).max(100).regex(/^[\w.+:-]+$/, "letters, digits and . _ - + : only");
// A library is whatever a record names as its library_name, which is free text on the Hub
// ("PyTorch, Transformers"), so every printable text is taken, matched exactly.
const librarySchema = z.string().trim().min(1).max(100).regex(/^[^\u0000-\u001f\u007f<>"'`]+$/, "no control characters, quotes or angle brackets");
const tagSchema = z.string().trim().min(1).max(200).regex(/^[^\s<>"'`]+$/, "no spaces or quotes");
/** The Hub's user and organisation names: the org part of a model id (app/catalog/model-id.ts). */
export const authorSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,95}$/, "letters, digits and . _ - only")
  .refine((v) => !v.includes(".."), "no '..'");
const paramsSchema = z.string().regex(/^\d+(\.\d+)?-(\d+(\.\d+)?)?$/, "a range in billions such as 6-9 or 128-");

/**
 * The view's one-value filters that are a checked string in the URL and the state alike: adding
 * one of these is a row here (and its predicate in sql.server.ts, where it also gives the in-memory
 * listing its candidate rows).
 */
const VALUE_PARAMS = [
  { param: "library", key: "library", schema: librarySchema },
  // Licences are matched in lower case, as the Hub writes them.
  { param: "license", key: "license", schema: slug.transform((v) => v.toLowerCase()) },
  { param: "inference_provider", key: "provider", schema: slug },
] as const satisfies ReadonlyArray<{ param: string; key: keyof ListingState; schema: z.ZodType<string, string> }>;

export function parseParamsRange(v: string): { min: number; max: number | null } | null {
  if (!paramsSchema.safeParse(v).success) return null;
  const [a, b] = v.split("-");
  const min = Number(a) * 1e9;
  const max = b ? Number(b) * 1e9 : null;
  if (max !== null && max <= min) return null;
  return { min, max };
}

export function parseListingState(params: URLSearchParams): { state: ListingState; problems: string[] } {
  const problems: string[] = [];
  const state: ListingState = { ...DEFAULT_STATE, other: [] };

  const one = (name: string): string | null => {
    const v = params.get(name);
    return v === null || v.trim() === "" ? null : v;
  };

  const search = params.get("search") ?? "";
  state.search = search.trim().slice(0, MAX_SEARCH_LENGTH);
  if (search.trim().length > MAX_SEARCH_LENGTH) problems.push(`The search was cut to ${MAX_SEARCH_LENGTH} characters.`);

  const author = one("author");
  if (author !== null) {
    const r = authorSchema.safeParse(author);
    if (r.success) state.author = r.data;
    else problems.push(`The author “${author.slice(0, 60)}” was ignored (${r.error.issues[0]?.message ?? "invalid"}).`);
  }

  const task = one("pipeline_tag");
  if (task !== null) {
    if (isCatalogueTask(task)) state.pipelineTag = task;
    else problems.push(`Unknown task “${task.slice(0, 60)}” was ignored.`);
  }

  for (const { param, key, schema } of VALUE_PARAMS) {
    const v = one(param);
    if (v === null) continue;
    const r = schema.safeParse(v);
    if (r.success) state[key] = r.data;
    else problems.push(`The ${param.replace("_", " ")} “${v.slice(0, 60)}” was ignored (${r.error.issues[0]?.message ?? "invalid"}).`);
  }

  const language = one("language");
  if (language !== null) {
    if (isLanguageCode(language.toLowerCase())) state.language = language.toLowerCase();
    else problems.push(`Unknown language code “${language.slice(0, 20)}” was ignored.`);
  }

  // `filter=` is the Hub's name for a tag filter (model pages link tags that way); `other=` is ours.
  for (const raw of [...params.getAll("other"), ...params.getAll("filter")]) {
    if (raw.trim() === "") continue;
    const r = tagSchema.safeParse(raw);
    if (!r.success) problems.push(`The tag “${raw.slice(0, 60)}” was ignored (${r.error.issues[0]?.message ?? "invalid"}).`);
    else if (state.other.length >= MAX_TAGS) problems.push(`Only ${MAX_TAGS} tags can be combined; “${r.data.slice(0, 60)}” was ignored.`);
    else if (!state.other.includes(r.data)) state.other.push(r.data);
  }

  const size = one("params");
  if (size !== null) {
    if (parseParamsRange(size)) state.params = size;
    else problems.push(`The size range “${size.slice(0, 20)}” was ignored (use a range in billions such as 6-9).`);
  }

  const sort = one("sort");
  if (sort !== null) {
    if ((SORT_KEYS as readonly string[]).includes(sort)) state.sort = sort as SortKey;
    else problems.push(`Unknown sort “${sort.slice(0, 30)}”; showing ${SORT_LABELS.trending.toLowerCase()}.`);
  }

  const page = parsePageParam(one("page"));
  state.page = page.page;
  if (page.problem) problems.push(page.problem);
  return { state, problems };
}

/** Canonical query string for a state; defaults are left out so URLs stay short. */
export function listingSearch(state: ListingState, patch: Partial<ListingState> = {}): string {
  const s = { ...state, ...patch };
  const p = new URLSearchParams();
  if (s.search) p.set("search", s.search);
  if (s.author) p.set("author", s.author);
  if (s.pipelineTag) p.set("pipeline_tag", s.pipelineTag);
  for (const { param, key } of VALUE_PARAMS) {
    // The order of the URL's parameters, kept from before the table: library, license, language.
    if (key === "provider") continue;
    const v = s[key];
    if (v) p.set(param, v);
  }
  if (s.language) p.set("language", s.language);
  for (const t of s.other) p.append("other", t);
  if (s.provider) p.set("inference_provider", s.provider);
  if (s.params) p.set("params", s.params);
  if (s.sort !== DEFAULT_STATE.sort) p.set("sort", s.sort);
  if (s.page > 1) p.set("page", String(s.page));
  const q = p.toString();
  return q ? `?${q}` : "";
}

export function listingHref(state: ListingState, patch: Partial<ListingState> = {}): string {
  return `/models${listingSearch(state, patch)}`;
}

/** An organisation page's URL (/<org>?…) for a view of its models; the author is the path. */
export function orgHref(org: string, state: ListingState, patch: Partial<ListingState> = {}): string {
  return `/${org}${listingSearch({ ...state, ...patch, author: null })}`;
}

/** The same view with every filter removed (the sort stays). */
export function clearedState(state: ListingState): ListingState {
  return { ...DEFAULT_STATE, other: [], sort: state.sort };
}

/** The Hub's organisation pages sort with `sort_models` (modified, created, likes, downloads, trending). */
const HUB_ORG_SORTS: Record<string, SortKey> = { modified: "updated", created: "created", likes: "likes", downloads: "downloads", trending: "trending" };

/**
 * An organisation page's query in the listing's names. The Hub's own organisation-page parameters
 * (`sort_models`, `search_models`) are read too, so a link copied from the Hub keeps its view, and
 * `p` is read as a 1-based page number; our names win when both are given.
 */
export function orgQueryToListing(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(params);
  out.delete("author");
  const hubSort = params.get("sort_models");
  if (hubSort !== null && !params.has("sort")) out.set("sort", HUB_ORG_SORTS[hubSort] ?? hubSort);
  const hubSearch = params.get("search_models");
  if (hubSearch !== null && !params.has("search")) out.set("search", hubSearch);
  const p = params.get("p");
  if (p !== null && !params.has("page")) out.set("page", p);
  for (const k of ["sort_models", "search_models", "p"]) out.delete(k);
  return out;
}

/** The last page that holds rows, for an exact count or a lower bound (the listing stops at MAX_PAGE). */
export function lastPageOf(count: { value: number; exact: boolean }): number {
  const total = count.exact ? Math.min(count.value, COUNT_CAP) : COUNT_CAP;
  return Math.max(1, Math.min(MAX_PAGE, Math.ceil(total / PAGE_SIZE)));
}

/** A page past the last one: no rows on a later page, or deeper than the listing goes. */
export function isPastEnd(page: number, rowsOnPage: number): boolean {
  return page > MAX_PAGE || (page > 1 && rowsOnPage === 0);
}

/** Whether any filter differs from the default view (the sort and the page are not filters). */
export function hasFilters(state: ListingState): boolean {
  const { sort: _sort, page: _page, ...filters } = state;
  return !isEmptyRecord(filters);
}

/** Every value unset: null, "" or an empty list. */
const isEmptyRecord = (r: object) => Object.values(r).every((v) => v === null || v === "" || (Array.isArray(v) && v.length === 0));

export function stateToFilters(state: ListingState): CatalogFilters {
  const range = state.params ? parseParamsRange(state.params) : null;
  return {
    search: state.search || null,
    author: state.author,
    pipelineTag: state.pipelineTag,
    license: state.license,
    tags: [...(state.library ? [state.library] : []), ...(state.language ? [state.language] : []), ...state.other],
    provider: state.provider,
    paramsMin: range?.min ?? null,
    paramsMax: range?.max ?? null,
  };
}

export function emptyFilters(): CatalogFilters {
  return { search: null, author: null, pipelineTag: null, license: null, tags: [], provider: null, paramsMin: null, paramsMax: null };
}

/** A stable key for a filter set: the same filters, and the same tags in any order, give the same key. */
export function filtersKey(f: CatalogFilters): string {
  const entries = Object.entries(f).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(entries.map(([k, v]: [string, unknown]) => [k, k === "search" && typeof v === "string" ? v.toLowerCase() : Array.isArray(v) ? [...(v as string[])].sort() : v]));
}

export function isUnfiltered(f: CatalogFilters): boolean {
  return isEmptyRecord(f);
}

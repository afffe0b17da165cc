import { loadListingView } from "#app/catalog-search/views/listing-page.server.ts";
import { emptyFilters, hasFilters, orgQueryToListing, parseListingState } from "#app/catalog-search/listing-params.ts";
import { getDb } from "#app/db/db.server.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { sortCoverage } from "#app/catalog-search/views/sort-coverage.server.ts";
import { openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { listModelsByAuthor } from "#app/db/queries/model-tree.server.ts";
import { listSpaces } from "#app/db/queries/spaces.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

/**
 * An organisation's page (/<org>): the listing's own view with the author fixed by the path, or
 * null when the catalogue holds no model by that author (the route then answers 404).
 */
export async function loadOrgPage(org: string, url: URL) {
  const handle = getDb();
  const [first] = await listModelsByAuthor(handle.db, org, 1);
  if (first === undefined) return null;
  const { state, problems } = parseListingState(orgQueryToListing(url.searchParams));
  state.author = org;
  const snapshot = await openSnapshot(handle);
  const view = await loadListingView(snapshot, state);
  // The heading counts all of the organisation's models; the view's count may be narrowed by a search.
  const narrowed = hasFilters({ ...state, author: null });
  const total = narrowed
    ? (await search(snapshot, { ...emptyFilters(), author: org }, { sort: state.sort, ascending: false, offset: 0, limit: 0, counts: "total" })).count
    : view.count;
  const hub = getEnv().MODELYARD_HUB_URL.replace(/\/+$/, "");
  // What the catalogue holds of the organisation beyond the list: its tasks (the view's facets),
  // its most-liked and newest models, and its Spaces. On the unfiltered first page only.
  const overview = narrowed || state.page > 1 ? null : await orgOverview(snapshot, org, view.facets.tasks);
  return { org, hubUrl: `${hub}/${org}`, total, state, problems, overview, ...view };
}

async function orgOverview(snapshot: Awaited<ReturnType<typeof openSnapshot>>, org: string, tasks: ReadonlyArray<{ value: string; count: number }>) {
  const filters = { ...emptyFilters(), author: org };
  const [liked, newest, undated, spaces] = await Promise.all([
    search(snapshot, filters, { sort: "likes", ascending: false, offset: 0, limit: 5, counts: "none" }),
    search(snapshot, filters, { sort: "created", ascending: false, offset: 0, limit: 5, counts: "none" }),
    // The newest are among the dated ones only; the column says how many it cannot place.
    sortCoverage(snapshot, filters, "created", null),
    listSpaces(snapshot.handle.db, { author: org, offset: 0, limit: 8 }),
  ]);
  return {
    tasks: tasks.slice(0, 12).map((t) => ({ task: t.value, count: t.count })),
    mostLiked: liked.models.filter((m) => m.likes > 0).map((m) => ({ id: m.id, likes: m.likes })),
    newest: newest.models.filter((m) => m.createdAt !== null).map((m) => ({ id: m.id, createdAt: m.createdAt! })),
    undated: undated?.unranked ?? null,
    spaces: { items: spaces.spaces.map((sp) => sp.id), total: spaces.total },
  };
}

export type OrgPageData = NonNullable<Awaited<ReturnType<typeof loadOrgPage>>>;

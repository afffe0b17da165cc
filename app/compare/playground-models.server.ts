/**
 * /playground's model picker: catalogue models matching a search that something here can run, a
 * page at a time. Only a provider mapping or a configured endpoint makes a model runnable, so the
 * candidates are read provider by provider through catalogue search (as "Add a column" reads its
 * matches) rather than by walking every match of the term.
 */
import type { CatalogModel } from "#app/catalog/model-record.ts";
import { emptyFilters } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { type CatalogSnapshot, openSnapshot } from "#app/catalog-search/snapshot.server.ts";
import { chatDemoInfo } from "#app/demos/chat/demo-info.server.ts";
import { taskWidgetInfo } from "#app/demos/task-widget-info.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";
import { PICKER_PAGE_SIZE, type PlaygroundMatches, type PlaygroundModel } from "#app/compare/playground-picker.ts";
import { configuredEndpoints } from "#app/inference/endpoints.server.ts";

const PROVIDER_PAGE = 200;
/** Matches read per provider: a provider mapping much of a large catalogue cannot make one request read it all. */
const PROVIDER_SCAN_LIMIT = 2_000;

/** What the playground runs a model with, as its page decides: the chat demo's providers, else its task widget's. */
export function playgroundRunners(model: CatalogModel, env: EnvLike): PlaygroundModel {
  const demo = chatDemoInfo(model, env);
  if (demo) return { id: model.id, kind: "Chat", runners: demo.providers.map((p) => p.label) };
  const widget = taskWidgetInfo(model, env);
  return { id: model.id, kind: widget?.taskName ?? "", runners: widget?.providers.map((p) => p.label) ?? [] };
}

interface Candidate {
  id: string;
  downloads: number;
}

/** Models matching `term` that some provider maps or some endpoint serves, most downloaded first (then by id). */
async function candidates(snapshot: CatalogSnapshot, term: string | null, env: EnvLike): Promise<{ list: Candidate[]; partial: boolean }> {
  const catalogue = await search(snapshot, emptyFilters(), { sort: "downloads", ascending: false, offset: 0, limit: 0, counts: "facets" });
  const byId = new Map<string, Candidate>();
  let partial = false;
  for (const { value: provider, count } of catalogue.facets.providers) {
    const filters = { ...emptyFilters(), search: term, provider };
    for (let offset = 0; offset < PROVIDER_SCAN_LIMIT; offset += PROVIDER_PAGE) {
      const page = await search(snapshot, filters, { sort: "downloads", ascending: false, offset, limit: PROVIDER_PAGE, counts: "none" });
      for (const m of page.models) byId.set(m.id, { id: m.id, downloads: m.downloads });
      if (page.models.length < PROVIDER_PAGE) break;
      if (offset + PROVIDER_PAGE >= PROVIDER_SCAN_LIMIT && count > PROVIDER_SCAN_LIMIT) partial = true;
    }
  }
  const needle = term?.toLowerCase() ?? "";
  for (const id of endpointModels(env)) {
    if (byId.has(id) || !id.toLowerCase().includes(needle)) continue;
    const model = await getModelById(snapshot.handle.db, id);
    if (model) byId.set(id, { id, downloads: model.downloads });
  }
  const list = [...byId.values()].sort((a, b) => b.downloads - a.downloads || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { list, partial };
}

/** The models configured endpoints serve; none when MODELYARD_ENDPOINTS is unset or invalid (the server says so at start). */
function endpointModels(env: EnvLike): string[] {
  try {
    return configuredEndpoints(env).flatMap((e) => [...e.models.keys()]);
  } catch {
    return [];
  }
}

/**
 * Page `page` of the models matching `query` that the playground can run here. Candidates are
 * checked in order only as far as this page needs, plus one, which says whether another follows.
 */
export async function findPlaygroundModels(query: string, page: number, env: EnvLike): Promise<PlaygroundMatches> {
  const snapshot = await openSnapshot(getDb());
  const term = query.trim().slice(0, 200) || null;
  const { list, partial } = await candidates(snapshot, term, env);
  const start = (page - 1) * PICKER_PAGE_SIZE;
  const found: PlaygroundModel[] = [];
  for (const c of list) {
    if (found.length > start + PICKER_PAGE_SIZE) break;
    const model = await getModelById(snapshot.handle.db, c.id);
    if (!model) continue;
    const runnable = playgroundRunners(model, env);
    if (runnable.runners.length > 0) found.push(runnable);
  }
  return { models: found.slice(start, start + PICKER_PAGE_SIZE), more: found.length > start + PICKER_PAGE_SIZE, partial };
}

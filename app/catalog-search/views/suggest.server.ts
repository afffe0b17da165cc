import { TASK_INDEX } from "#app/catalog/catalog-index.generated.ts";
import { emptyFilters, searchWords } from "#app/catalog-search/listing-params.ts";
import { search } from "#app/catalog-search/search.server.ts";
import type { CatalogSnapshot } from "#app/catalog-search/snapshot.server.ts";

/** What the header search offers while one types: the shape of GET /api/suggest. */
export interface Suggestions {
  query: string;
  models: Array<{ id: string; pipelineTag: string | null }>;
  orgs: string[];
  tasks: Array<{ id: string; name: string }>;
}

const MODELS = 6;
const ORGS = 3;
const TASKS = 3;
/** The matches organisations are read from: the most downloaded, as the model list is. */
const ORG_SAMPLE = 200;

/**
 * Models whose id holds every word (the listing's own search, so a suggestion never promises
 * what /models?search= then lacks), organisations among those matches whose name holds a word,
 * and tasks whose name or id holds every word.
 */
export async function suggest(snapshot: CatalogSnapshot, query: string): Promise<Suggestions> {
  const words = searchWords(query);
  if (words.length === 0) return { query, models: [], orgs: [], tasks: [] };
  const found = await search(snapshot, { ...emptyFilters(), search: query }, { sort: "downloads", ascending: false, offset: 0, limit: ORG_SAMPLE, counts: "none" });
  const orgCounts = new Map<string, number>();
  for (const m of found.models) {
    const author = m.author.toLowerCase();
    if (words.some((w) => author.includes(w))) orgCounts.set(m.author, (orgCounts.get(m.author) ?? 0) + 1);
  }
  const orgs = [...orgCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, ORGS).map(([name]) => name);
  const tasks = Object.entries(TASK_INDEX)
    .filter(([id, t]) => !t.hideInModels && words.every((w) => id.includes(w) || t.name.toLowerCase().includes(w)))
    .slice(0, TASKS)
    .map(([id, t]) => ({ id, name: t.name }));
  return { query, models: found.models.slice(0, MODELS).map((m) => ({ id: m.id, pipelineTag: m.pipelineTag })), orgs, tasks };
}

import { type RawBuilder, sql } from "kysely";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import { emptyTally } from "#app/catalog-search/facet-index.server.ts";
import { type CatalogFacets, facetsFromTally } from "#app/catalog-search/facets.server.ts";
import type { CatalogFilters } from "#app/catalog-search/listing-params.ts";
import type { PageQuery } from "#app/catalog-search/planner.server.ts";
import { type ListRow, ROW_COLUMNS, andAll, buildPredicates, ftsPhrase, orderBy, rowToSummary } from "#app/catalog-search/sql.server.ts";
import { likePattern } from "#app/db/like-pattern.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";

/**
 * The straightforward catalogue queries the planner must agree with (the equivalence tests) and
 * is measured against (bench:catalog): search through FTS5/pg_trgm alone with every match fetched
 * and sorted, an exact COUNT(*), and facets by a live GROUP BY over all matches, no cache.
 */

export async function baselinePage(handle: DatabaseHandle, filters: CatalogFilters, page: PageQuery): Promise<CatalogModelSummary[]> {
  const preds = buildPredicates(handle.dialect, filters);
  // One word through its text index, as a search box would; more words are each a plain LIKE.
  const searches = preds.filter((p) => p.kind === "search");
  const search = searches.length === 1 ? searches[0] : undefined;
  const others = preds.filter((p) => p !== search).map((p) => p.where);
  let from: RawBuilder<unknown> = sql`models m`;
  let cte: RawBuilder<unknown> = sql``;
  if (search) {
    if (handle.dialect === "sqlite" && [...search.value].length < 3) {
      // FTS5 trigrams need three characters; shorter terms can only be scanned for.
      others.push(search.where);
    } else if (handle.dialect === "sqlite") {
      // FTS first (CROSS JOIN): otherwise SQLite may walk a sort index and re-run the MATCH per row.
      from = sql`models_fts f cross join models m on m.rid = f.rowid`;
      others.push(sql`models_fts match ${ftsPhrase(search.value)}`);
    } else {
      // Every trigram match first, then sort: what pg_trgm alone does for a search box.
      cte = sql`with d as materialized (select rid from models where lower(id) like ${likePattern(search.value)}) `;
      from = sql`d join models m on m.rid = d.rid`;
    }
  }
  const r = await sql<ListRow>`${cte}select ${ROW_COLUMNS} from ${from} where ${andAll(others)}
    order by ${orderBy(handle.dialect, page.sort, page.ascending)} limit ${page.limit} offset ${page.offset}`.execute(handle.db);
  return r.rows.map(rowToSummary);
}

export async function baselineCount(handle: DatabaseHandle, filters: CatalogFilters): Promise<number> {
  const preds = buildPredicates(handle.dialect, filters);
  const r = await sql<{ n: number }>`select count(*) as n from models m where ${andAll(preds.map((p) => p.where))}`.execute(handle.db);
  return Number(r.rows[0]?.n ?? 0);
}

export async function liveFacetsBaseline(handle: DatabaseHandle, filters: CatalogFilters): Promise<CatalogFacets> {
  const generation = await getCatalogueGeneration(handle.db);
  const preds = buildPredicates(handle.dialect, filters);
  const where = andAll(preds.map((p) => p.where));
  const c = emptyTally();
  const add = (m: Map<string, number>, k: string | null, n: number) => {
    if (k !== null && k !== "") m.set(k, (m.get(k) ?? 0) + n);
  };
  const group = async (col: string, m: Map<string, number>) => {
    const r = await sql<{ v: string | null; n: number }>`select ${sql.raw(col)} as v, count(*) as n from models m where ${where} group by 1`.execute(handle.db);
    for (const x of r.rows) add(m, x.v, Number(x.n));
  };
  await group("m.pipeline_tag", c.tasks);
  await group("m.library_name", c.libraries);
  await group("m.license", c.licenses);
  const tags = await sql<{ v: string; n: number }>`select t.tag as v, count(*) as n from model_tags t join models m on m.rid = t.rid
    where ${where} and t.tag not like '%:%' group by t.tag`.execute(handle.db);
  for (const x of tags.rows) add(c.tags, x.v, Number(x.n));
  const prov = await sql<{ v: string; n: number }>`select p.provider as v, count(*) as n from model_providers p join models m on m.rid = p.rid
    where ${where} group by p.provider`.execute(handle.db);
  for (const x of prov.rows) add(c.providers, x.v, Number(x.n));
  const total = await sql<{ n: number }>`select count(*) as n from models m where ${where}`.execute(handle.db);
  c.total = Number(total.rows[0]?.n ?? 0);
  return facetsFromTally(c, true, generation);
}

import { sql } from "kysely";
import { emptyTally } from "#app/catalog-search/index/facet-index.server.ts";
import { type CatalogFacets, facetsFromTally } from "#app/catalog-search/facets.server.ts";
import { type CatalogFilters, PARAM_BUCKETS } from "#app/catalog-search/listing-params.ts";
import { andAll, buildPredicates } from "#app/catalog-search/sql/sql.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";

/**
 * Exact answers the listing's counts must agree with (the equivalence tests) and are measured
 * against (bench:catalog): an uncapped COUNT(*), and facets by a live GROUP BY over all matches, no
 * cache. Pages are held to the app's own plain query (app/catalog-search/sql/sql-listing.server.ts).
 */

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
  // Size buckets: a row's params fall in at most one (PARAM_BUCKETS' upper bounds are exclusive).
  const sizes = await sql<{ v: number | string | null; n: number }>`select m.params as v, count(*) as n from models m where ${where} and m.params is not null group by m.params`.execute(handle.db);
  for (const x of sizes.rows) {
    const v = Number(x.v);
    add(c.params, PARAM_BUCKETS.find((b) => v >= b.min && (b.max === null || v < b.max))?.id ?? null, Number(x.n));
  }
  const total = await sql<{ n: number }>`select count(*) as n from models m where ${where}`.execute(handle.db);
  c.total = Number(total.rows[0]?.n ?? 0);
  return facetsFromTally(c, true, generation);
}

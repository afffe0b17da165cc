import { type RawBuilder, sql } from "kysely";
import { type CatalogFilters, searchWords } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { DatabaseHandle, DialectName } from "#app/db/client.server.ts";
import type { CatalogueCoverage } from "#app/catalog-search/answer-types.ts";
import { type SummaryRow, toSummary } from "#app/db/queries/models.server.ts";
import { likePattern } from "#app/db/like-pattern.ts";

/**
 * SQL pieces shared by the listing's plain queries (sql-listing.server.ts), the index's candidate
 * rows and the sort-coverage count: one predicate per filter, the sort order and keyset cursors.
 */

export const SORT_COLUMN = {
  trending: "trending_score",
  downloads: "downloads",
  likes: "likes",
  created: "created_at",
  updated: "last_modified",
} as const satisfies Record<SortKey, string>;

const NULLABLE_SORT = new Set<string>(["created_at", "last_modified"]);

export const ROW_COLUMNS = sql.raw(
  "m.rid, m.id, m.author, m.pipeline_tag, m.pipeline_tag_from, m.library_name, m.license, m.tags, m.downloads, m.likes, m.trending_score, m.params, m.created_at, m.last_modified, m.gated, m.stats_as_of, m.providers, m.chat_template_status",
);

export type ListRow = SummaryRow & { rid: number };

export function rowToSummary(r: ListRow): CatalogModelSummary {
  return toSummary(r);
}

/**
 * ORDER BY for a sort. Descending puts nulls last and ascending puts them first on both engines,
 * which is the order the (col desc, rid) indexes hold them in, so either direction walks an index.
 */
export function orderBy(dialect: DialectName, sort: SortKey, ascending: boolean, alias = "m"): RawBuilder<unknown> {
  const col = SORT_COLUMN[sort];
  const nulls = dialect === "postgres" && NULLABLE_SORT.has(col) ? (ascending ? " nulls first" : " nulls last") : "";
  return sql.raw(ascending ? `${alias}.${col} asc${nulls}, ${alias}.rid desc` : `${alias}.${col} desc${nulls}, ${alias}.rid asc`);
}

/** FTS5 phrase for a substring: the trigram tokenizer matches any run of three or more characters. */
export function ftsPhrase(term: string): string {
  // FTS5 reads its query as a C string: a NUL ends it mid-phrase ("unterminated string", a 500).
  // No id holds one, so dropping it changes no match.
  return `"${term.replace(/\0/g, "").replace(/"/g, '""')}"`;
}

export type PredKind = "search" | "author" | "task" | "library" | "license" | "tag" | "provider" | "params";

export interface Pred {
  kind: PredKind;
  /** The filter's value (a search word, a tag, a task, …). */
  value: string;
  /** A condition on the row alias `m`. */
  where: RawBuilder<unknown>;
  /**
   * Every matching row id (`rid`), read from one index: how the in-memory listing takes a filter
   * its facet profiles do not hold (memory-listing.server.ts). Null for a search, which the id
   * text answers.
   */
  rows: RawBuilder<unknown> | null;
}

export function searchWhere(dialect: DialectName, term: string, alias = "m"): RawBuilder<unknown> {
  const col = sql.raw(`${alias}.id`);
  // SQLite's LIKE folds ASCII case itself; PostgreSQL's trigram index is built over lower(id).
  return dialect === "sqlite" ? sql`${col} like ${likePattern(term)} escape '\\'` : sql`lower(${col}) like ${likePattern(term)} escape '\\'`;
}

/** A filter on one column of `models`, with its own index. */
const column = (kind: PredKind, col: string, value: string): Pred => ({
  kind,
  value,
  where: sql`${sql.ref(`m.${col}`)} = ${value}`,
  rows: sql`select rid from models where ${sql.ref(col)} = ${value}`,
});

/** A filter on a (value, rid) side table such as model_tags, keyed by the value. */
const listed = (kind: PredKind, table: string, col: string, value: string): Pred => ({
  kind,
  value,
  where: sql`exists (select 1 from ${sql.table(table)} x where ${sql.ref(`x.${col}`)} = ${value} and x.rid = m.rid)`,
  rows: sql`select rid from ${sql.table(table)} where ${sql.ref(col)} = ${value}`,
});

/**
 * One predicate per filter (each search word is one). The one place a filter meets SQL: the plain
 * queries and the in-memory listing's candidate rows both read these.
 */
export function buildPredicates(dialect: DialectName, f: CatalogFilters): Pred[] {
  const preds: Pred[] = [];
  for (const word of f.search ? searchWords(f.search) : []) preds.push({ kind: "search", value: word, where: searchWhere(dialect, word), rows: null });
  if (f.author) preds.push(column("author", "author", f.author));
  if (f.pipelineTag) preds.push(column("task", "pipeline_tag", f.pipelineTag));
  if (f.license) preds.push(column("license", "license", f.license));
  for (const tag of new Set(f.tags)) preds.push(listed("tag", "model_tags", "tag", tag));
  if (f.provider) preds.push(listed("provider", "model_providers", "provider", f.provider));
  if (f.paramsMin !== null || f.paramsMax !== null) {
    const min = f.paramsMin ?? 0;
    const range = (c: RawBuilder<unknown>) => (f.paramsMax === null ? sql`${c} >= ${min}` : sql`${c} >= ${min} and ${c} < ${f.paramsMax}`);
    preds.push({ kind: "params", value: `${min}-${f.paramsMax ?? ""}`, where: range(sql.ref("m.params")), rows: sql`select rid from models where ${range(sql.ref("params"))}` });
  }
  return preds;
}

/** Where a keyset cursor resumes: the sort value and row id of the last row already returned. */
export interface Cursor {
  v: string | number | null;
  rid: number;
}

/** Rows strictly after `after` in the listing order (see orderBy). */
export function afterWhere(sort: SortKey, ascending: boolean, after: Cursor): RawBuilder<unknown> {
  const colName = SORT_COLUMN[sort];
  const c = sql.raw(`m.${colName}`);
  const { v, rid } = after;
  if (!NULLABLE_SORT.has(colName)) {
    // Written as a range on the column, so the sort index starts at the cursor instead of the top.
    return ascending ? sql`${c} >= ${v} and (${c} > ${v} or m.rid < ${rid})` : sql`${c} <= ${v} and (${c} < ${v} or m.rid > ${rid})`;
  }
  if (!ascending) {
    return v === null ? sql`(${c} is null and m.rid > ${rid})` : sql`((${c} <= ${v} and (${c} < ${v} or m.rid > ${rid})) or ${c} is null)`;
  }
  return v === null ? sql`((${c} is null and m.rid < ${rid}) or ${c} is not null)` : sql`(${c} >= ${v} and (${c} > ${v} or m.rid < ${rid}))`;
}

export function andAll(preds: Array<RawBuilder<unknown>>): RawBuilder<unknown> {
  if (preds.length === 0) return sql`1 = 1`;
  return sql.join(
    preds.map((p) => sql`(${p})`),
    sql` and `,
  );
}

/**
 * A row without counts (hasKnownCounts in app/catalog/model-record.ts): its zeros are the
 * importer's, not the Hub's. Migration 0012's partial index finds them.
 */
const NO_COUNTS = sql`m.stats_as_of is null and m.downloads = 0 and m.likes = 0`;

/**
 * The rows a sort cannot rank. Those without a score or a date sort last (orderBy), tied, by row
 * id; those without counts sort as zeros, among any counted zeros.
 */
export const UNRANKED: Record<SortKey, RawBuilder<unknown>> = {
  trending: sql`m.trending_score <= 0`,
  updated: sql`m.last_modified is null`,
  created: sql`m.created_at is null`,
  downloads: NO_COUNTS,
  likes: NO_COUNTS,
};

/**
 * The rows a sort ranks, where an index holds them (a row has counts when any of three columns
 * says so, which no index holds: for counts, only the rows without are counted).
 */
export const RANKED = {
  trending: sql`m.trending_score > 0`,
  updated: sql`m.last_modified is not null`,
  created: sql`m.created_at is not null`,
} satisfies Partial<Record<SortKey, RawBuilder<unknown>>>;

/** What `sort` can rank in the whole catalogue (views/sort-coverage.server.ts). */
export async function readCatalogueCoverage(handle: DatabaseHandle, sort: SortKey): Promise<CatalogueCoverage> {
  const { reader } = handle;
  const counts = await sql<{ rows: number | string; unranked: number | string }>`select (select count(*) from models) as rows, (select count(*) from models m where ${UNRANKED[sort]}) as unranked`.execute(reader);
  const rows = Number(counts.rows[0]?.rows ?? 0);
  const unranked = Number(counts.rows[0]?.unranked ?? 0);
  if (sort !== "trending") return { rows, unranked, asOf: null };
  // The dates of the scores that rank: a score from live counts (no snapshot date) among them
  // makes the ranking no snapshot's, and then none is named.
  const dates = await sql<{ first: string | null; last: string | null; live: number | string }>`select min(m.stats_as_of) as first, max(m.stats_as_of) as last,
    count(*) - count(m.stats_as_of) as live from models m where ${RANKED.trending}`.execute(reader);
  const first = dates.rows[0]?.first ?? null;
  const last = dates.rows[0]?.last ?? null;
  const live = Number(dates.rows[0]?.live ?? 0);
  return { rows, unranked, asOf: first !== null && last !== null && live === 0 ? { from: first, to: last } : null };
}

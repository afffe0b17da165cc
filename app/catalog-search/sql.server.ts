import { type RawBuilder, sql } from "kysely";
import { type CatalogFilters, searchWords } from "#app/catalog-search/listing-params.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { DialectName } from "#app/db/client.server.ts";
import { type SummaryRow, toSummary } from "#app/db/queries/models.server.ts";
import { likePattern } from "#app/db/like-pattern.ts";

/**
 * SQL pieces shared by the listing planner and the facet counter: one predicate per filter, and
 * for each selective filter a "driver" that yields its row ids straight from an index.
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
  "m.rid, m.id, m.author, m.pipeline_tag, m.library_name, m.license, m.tags, m.downloads, m.likes, m.trending_score, m.params, m.created_at, m.last_modified, m.gated, m.stats_as_of, m.providers, m.chat_template_status",
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
  /** The facet value (tag, task, …) for selectivity look-ups. */
  value: string;
  /** A condition on the row alias `m`. */
  where: RawBuilder<unknown>;
  /** A query yielding `rid` for every match, read from an index; null when none is worth it. */
  driver: RawBuilder<unknown> | null;
  /** The same condition in a form no index answers, for walks along a sort index (PostgreSQL). */
  walkWhere?: RawBuilder<unknown>;
}

export function searchWhere(dialect: DialectName, term: string, alias = "m"): RawBuilder<unknown> {
  const col = sql.raw(`${alias}.id`);
  // SQLite's LIKE folds ASCII case itself; PostgreSQL's trigram index is built over lower(id).
  return dialect === "sqlite" ? sql`${col} like ${likePattern(term)} escape '\\'` : sql`lower(${col}) like ${likePattern(term)} escape '\\'`;
}

export function searchDriver(dialect: DialectName, term: string): RawBuilder<unknown> | null {
  if (dialect === "sqlite") {
    if ([...term].length < 3) return null;
    return sql`select rowid as rid from models_fts where models_fts match ${ftsPhrase(term)}`;
  }
  if ([...term].length < 3) return null;
  return sql`select rid from models where lower(id) like ${likePattern(term)} escape '\\'`;
}

export function buildPredicates(dialect: DialectName, f: CatalogFilters): Pred[] {
  const preds: Pred[] = [];
  for (const word of f.search ? searchWords(f.search) : []) {
    preds.push({
      kind: "search",
      value: word,
      where: searchWhere(dialect, word),
      driver: searchDriver(dialect, word),
      // PostgreSQL would answer LIKE through pg_trgm and sort every match, the very cost a walk avoids.
      walkWhere: dialect === "postgres" ? sql`strpos(lower(m.id), ${word}) > 0` : undefined,
    });
  }
  if (f.author) {
    preds.push({ kind: "author", value: f.author, where: sql`m.author = ${f.author}`, driver: sql`select rid from models where author = ${f.author}` });
  }
  if (f.pipelineTag) {
    preds.push({
      kind: "task",
      value: f.pipelineTag,
      where: sql`m.pipeline_tag = ${f.pipelineTag}`,
      driver: sql`select rid from models where pipeline_tag = ${f.pipelineTag}`,
    });
  }
  if (f.license) {
    preds.push({ kind: "license", value: f.license, where: sql`m.license = ${f.license}`, driver: sql`select rid from models where license = ${f.license}` });
  }
  for (const tag of [...new Set(f.tags)]) {
    preds.push({
      kind: "tag",
      value: tag,
      where: sql`exists (select 1 from model_tags t where t.tag = ${tag} and t.rid = m.rid)`,
      driver: sql`select rid from model_tags where tag = ${tag}`,
    });
  }
  if (f.provider) {
    preds.push({
      kind: "provider",
      value: f.provider,
      where: sql`exists (select 1 from model_providers p where p.provider = ${f.provider} and p.rid = m.rid)`,
      driver: sql`select rid from model_providers where provider = ${f.provider}`,
    });
  }
  if (f.paramsMin !== null || f.paramsMax !== null) {
    const min = f.paramsMin ?? 0;
    const where = f.paramsMax === null ? sql`m.params >= ${min}` : sql`m.params >= ${min} and m.params < ${f.paramsMax}`;
    const driver =
      f.paramsMax === null
        ? sql`select rid from models where params >= ${min}`
        : sql`select rid from models where params >= ${min} and params < ${f.paramsMax}`;
    preds.push({ kind: "params", value: `${min}-${f.paramsMax ?? ""}`, where, driver });
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

import type SQLite from "better-sqlite3";
import type { Insertable, Kysely, Selectable, Transaction } from "kysely";
import type { Database, ModelDetailsTable, ModelsTable } from "#app/db/schema.ts";
import { statementCache } from "#app/db/statement-cache.server.ts";

type Db = Kysely<Database> | Transaction<Database>;

export type ModelRow = Selectable<ModelsTable>;
export type DetailsRow = Selectable<ModelDetailsTable>;
export type NewModelRow = Omit<Insertable<ModelsTable>, "rid">;
export type NewDetailsRow = Omit<Insertable<ModelDetailsTable>, "rid">;

// Both engines accept well over this many bound parameters per statement (SQLite 32766, PG 65535).
const MAX_PARAMS = 30_000;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface ExistingModel {
  model: ModelRow;
  details: DetailsRow | null;
}

/** Current rows for a batch of ids, so the importer can merge partial records and skip no-ops. */
export async function fetchExistingModels(db: Db, ids: string[]): Promise<Map<string, ExistingModel>> {
  const out = new Map<string, ExistingModel>();
  for (const part of chunks(ids, 5000)) {
    const models = await db.selectFrom("models").selectAll().where("id", "in", part).execute();
    if (!models.length) continue;
    const details = await db
      .selectFrom("model_details")
      .selectAll()
      .where(
        "rid",
        "in",
        models.map((m) => m.rid),
      )
      .execute();
    const byRid = new Map(details.map((d) => [d.rid, d]));
    for (const m of models) out.set(m.id, { model: m, details: byRid.get(m.rid) ?? null });
  }
  return out;
}

const MODEL_COLUMNS = [
  "author", "pipeline_tag", "pipeline_tag_from", "library_name", "license", "downloads", "likes", "trending_score", "params",
  "created_at", "last_modified", "gated", "stats_as_of", "providers", "tags", "chat_template_status",
  "imported_at",
] as const satisfies ReadonlyArray<keyof NewModelRow>;

const statements = new WeakMap<SQLite.Database, (sql: string) => SQLite.Statement>();

/** Prepared once per connection: SQLite bulk writes skip query building and re-parsing. */
function prepared(raw: SQLite.Database, text: string): SQLite.Statement {
  let prepare = statements.get(raw);
  if (!prepare) statements.set(raw, (prepare = statementCache(raw)));
  return prepare(text);
}

const UPSERT_MODEL_SQL = `insert into models (id, ${MODEL_COLUMNS.join(", ")}) values (?, ${MODEL_COLUMNS.map(() => "?").join(", ")})
  on conflict(id) do update set ${MODEL_COLUMNS.map((c) => `${c} = excluded.${c}`).join(", ")} returning rid`;

/**
 * Inserts or fully replaces model rows by id; returns the row id of each. `raw` is the SQLite
 * connection the surrounding transaction runs on, when there is one (the fast path).
 */
export async function upsertModels(db: Db, rows: NewModelRow[], raw: SQLite.Database | null = null): Promise<Array<{ rid: number; id: string }>> {
  const out: Array<{ rid: number; id: string }> = [];
  if (raw) {
    const stmt = prepared(raw, UPSERT_MODEL_SQL);
    for (const r of rows) {
      const res = stmt.get(r.id, ...MODEL_COLUMNS.map((c) => r[c] ?? null)) as { rid: number };
      out.push({ rid: res.rid, id: r.id });
    }
    return out;
  }
  const per = Math.floor(MAX_PARAMS / (MODEL_COLUMNS.length + 1));
  for (const part of chunks(rows, per)) {
    const res = await db
      .insertInto("models")
      .values(part)
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const c of MODEL_COLUMNS) set[c] = eb.ref(`excluded.${c}`);
          return set;
        }),
      )
      .returning(["rid", "id"])
      .execute();
    out.push(...res);
  }
  return out;
}

const DETAIL_COLUMNS = [
  "sha", "languages", "datasets", "base_models", "card_md", "card_data", "config", "chat_template", "bos_token",
  "eos_token", "chat_template_issue", "siblings", "safetensors", "gguf", "widget_data", "transformers_info",
  "transformers_info_source", "model_index", "spaces", "provider_mapping",
] as const satisfies ReadonlyArray<keyof NewDetailsRow>;

export async function upsertDetails(db: Db, rows: Array<NewDetailsRow & { rid: number }>): Promise<void> {
  // Card text can be large; a few hundred rows per statement keeps memory flat.
  for (const part of chunks(rows, 200)) {
    await db
      .insertInto("model_details")
      .values(part)
      .onConflict((oc) =>
        oc.column("rid").doUpdateSet((eb) => {
          const set: Record<string, unknown> = {};
          for (const c of DETAIL_COLUMNS) set[c] = eb.ref(`excluded.${c}`);
          return set;
        }),
      )
      .execute();
  }
}

/** Adds new models to the SQLite trigram index (PostgreSQL's pg_trgm index maintains itself). */
export function indexNewModelIds(raw: SQLite.Database | null, rows: Array<{ rid: number; id: string }>): void {
  if (!raw) return;
  const stmt = prepared(raw, "insert into models_fts (rowid, id) values (?, ?)");
  for (const r of rows) stmt.run(r.rid, r.id);
}

export async function replaceModelTags(
  db: Db,
  rids: number[],
  pairs: Array<{ rid: number; tag: string }>,
  raw: SQLite.Database | null = null,
): Promise<void> {
  for (const part of chunks(rids, 5000)) await db.deleteFrom("model_tags").where("rid", "in", part).execute();
  if (raw) {
    // One statement per batch: SQLite unpacks the JSON itself, saving a JS-to-native call per row.
    const stmt = prepared(
      raw,
      "insert into model_tags (tag, rid) select j.value ->> 0, j.value ->> 1 from json_each(?) j order by 1, 2",
    );
    stmt.run(JSON.stringify(pairs.map((p) => [p.tag, p.rid])));
    return;
  }
  for (const part of chunks(pairs, Math.floor(MAX_PARAMS / 2))) await db.insertInto("model_tags").values(part).execute();
}

export interface ProviderRow {
  rid: number;
  provider: string;
  provider_id: string;
  task: string;
  status: string | null;
  adapter: string | null;
  adapter_weights_path: string | null;
}

export async function replaceModelProviders(db: Db, rids: number[], rows: ProviderRow[]): Promise<void> {
  for (const part of chunks(rids, 5000)) await db.deleteFrom("model_providers").where("rid", "in", part).execute();
  for (const part of chunks(rows, Math.floor(MAX_PARAMS / 7))) await db.insertInto("model_providers").values(part).execute();
}

export async function replaceModelBases(
  db: Db,
  rids: number[],
  rows: Array<{ rid: number; base_id: string; relation: string }>,
  raw: SQLite.Database | null = null,
): Promise<void> {
  for (const part of chunks(rids, 5000)) await db.deleteFrom("model_bases").where("rid", "in", part).execute();
  if (raw) {
    if (!rows.length) return;
    const stmt = prepared(
      raw,
      "insert into model_bases (rid, base_id, relation) select j.value ->> 0, j.value ->> 1, j.value ->> 2 from json_each(?) j",
    );
    stmt.run(JSON.stringify(rows.map((r) => [r.rid, r.base_id, r.relation])));
    return;
  }
  for (const part of chunks(rows, Math.floor(MAX_PARAMS / 3))) await db.insertInto("model_bases").values(part).execute();
}

/** Links models to the Spaces their records name; Spaces are created on first sight. */
export async function replaceSpaceLinks(
  db: Db,
  modelIds: string[],
  links: Array<{ space_id: string; model_id: string }>,
): Promise<void> {
  for (const part of chunks(modelIds, 5000)) {
    await db
      .deleteFrom("space_models")
      .where("model_id", "in", part)
      .where("space_id", "in", (eb) => eb.selectFrom("spaces").select("id").where("source", "=", "model-record"))
      .execute();
  }
  const spaces = [...new Set(links.map((l) => l.space_id))].map((id) => ({
    id,
    author: id.includes("/") ? id.split("/")[0]! : "",
    title: null,
    sdk: null,
    source: "model-record",
  }));
  for (const part of chunks(spaces, Math.floor(MAX_PARAMS / 5))) {
    await db.insertInto("spaces").values(part).onConflict((oc) => oc.column("id").doNothing()).execute();
  }
  for (const part of chunks(links, Math.floor(MAX_PARAMS / 2))) {
    await db.insertInto("space_models").values(part).onConflict((oc) => oc.columns(["space_id", "model_id"]).doNothing()).execute();
  }
}

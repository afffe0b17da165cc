import { type Kysely, sql } from "kysely";
import { storesPackedQuantisedWeights } from "#app/catalog/parameter-count.ts";

const parsed = (text: string | null): Record<string, unknown> | null => {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
};

/**
 * A model whose safetensors total counts packed quantised storage (AWQ, GPTQ: eight 4-bit weights
 * per I32) holds no parameter count: the importer has stored none for such a row since a visitor's
 * review found Qwen2-72B-Instruct-AWQ listed as "11.9B", and this clears the figure earlier imports
 * stored, which the size filter and the listing's column still showed. A GGUF header's total, when
 * the row has one, is a real count and is kept, as the importer keeps it. Only rows whose counts
 * name an integer dtype are read. The generation moves when a row changed: saved listing indexes
 * hold the old sizes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ rid: number; params: number | string; tags: string; safetensors: string | null; config: string | null; gguf: string | null }>`
    select m.rid, m.params, m.tags, d.safetensors, d.config, d.gguf from models m
    join model_details d on d.rid = m.rid
    where m.params is not null and (d.safetensors like ${'%"I%'} or d.safetensors like ${'%"U%'})`.execute(db);
  let changed = 0;
  for (const row of rows.rows) {
    const tags: unknown = JSON.parse(row.tags);
    const packed = storesPackedQuantisedWeights({
      safetensors: parsed(row.safetensors),
      config: parsed(row.config),
      tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === "string") : [],
    });
    if (!packed) continue;
    const total = parsed(row.gguf)?.["total"];
    const params = typeof total === "number" ? total : null;
    // PostgreSQL's bigint comes back as a string.
    if (params !== null && Number(row.params) === params) continue;
    await sql`update models set params = ${params} where rid = ${row.rid}`.execute(db);
    changed++;
  }
  if (changed > 0) {
    await sql`insert into meta (key, value) values ('generation', '1')
      on conflict (key) do update set value = cast(cast(meta.value as integer) + 1 as text)`.execute(db);
  }
}

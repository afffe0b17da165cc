import { type Kysely, sql } from "kysely";
import { taskOf } from "#app/catalog/chat-model.ts";
import type { ProviderMapping } from "#app/catalog/model-record.ts";

/**
 * A model whose record names no pipeline tag is filed under the one task its provider mappings
 * name (`taskOf`: `conversational` is text generation's chat), and `pipeline_tag_from` says so.
 * The newest chat models arrive as list rows with no tag (`deepseek-ai/DeepSeek-V3`), and were in
 * no task's listing, count or /compare column although every demo treats them as chat models.
 * The importer does the same from now on. The generation is bumped: saved listing indexes and
 * everything cached hold the rows' old tasks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table models add column pipeline_tag_from text`.execute(db);
  const rows = await sql<{ rid: number; provider_mapping: string }>`select m.rid, d.provider_mapping from models m
    join model_details d on d.rid = m.rid
    where m.pipeline_tag is null and d.provider_mapping is not null and d.provider_mapping <> '[]'`.execute(db);
  let changed = 0;
  for (const row of rows.rows) {
    const task = taskOf({ pipelineTag: null, inferenceProviderMapping: JSON.parse(row.provider_mapping) as ProviderMapping[] });
    if (task === null) continue;
    await sql`update models set pipeline_tag = ${task}, pipeline_tag_from = 'mapping' where rid = ${row.rid}`.execute(db);
    changed++;
  }
  if (changed > 0) {
    await sql`insert into meta (key, value) values ('generation', '1')
      on conflict (key) do update set value = cast(cast(meta.value as integer) + 1 as text)`.execute(db);
  }
}

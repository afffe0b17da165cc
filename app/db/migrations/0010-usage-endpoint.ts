import { type Kysely, sql } from "kysely";

/**
 * Which URL a usage record's call came through (/api/inference or an OpenAI-compatible /v1
 * route), and an index for ranking a model's providers by their recent time to first token
 * (the /v1 routing policy "fastest", ADR 0040). Older records are from /api/inference, the only
 * route there was.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table usage_records add column endpoint text not null default '/api/inference'`.execute(db);
  await sql`create index usage_records_model_at on usage_records (model, at)`.execute(db);
}

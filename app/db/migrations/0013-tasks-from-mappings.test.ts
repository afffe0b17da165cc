import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { up } from "#app/db/migrations/0013-tasks-from-mappings.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { testDialects } from "#tests/support/test-databases.ts";

for (const dialect of testDialects()) {
  describe(`migration 0013 on ${dialect.name}`, () => {
    it("gives rows naming no task the one their mappings name, marked as such, and moves the generation", async () => {
      const t = await dialect.create();
      try {
        const db = t.handle.db;
        // The database as 0012 left it.
        await sql`alter table models drop column pipeline_tag_from`.execute(db);
        const mapping = (...tasks: string[]) => JSON.stringify(tasks.map((task, i) => ({ provider: `p${i}`, providerId: "x", task, status: "live" })));
        const rows: Array<[string, string | null, string | null]> = [
          ["org/chat", null, mapping("conversational", "conversational")],
          ["org/mixed", null, mapping("conversational", "text-to-image")],
          ["org/tagged", "image-text-to-text", mapping("conversational")],
          ["org/unmapped", null, "[]"],
          ["org/no-details", null, null],
        ];
        for (const [id, tag, providerMapping] of rows) {
          const r = await sql<{ rid: number }>`insert into models (id, author, pipeline_tag, downloads, likes, trending_score, gated, providers, tags, imported_at)
            values (${id}, 'org', ${tag}, 0, 0, 0, 'false', '[]', '[]', '2024-07-12T00:00:00Z') returning rid`.execute(db);
          if (providerMapping !== null) {
            await sql`insert into model_details (rid, languages, datasets, base_models, siblings, provider_mapping, spaces)
              values (${r.rows[0]!.rid}, '[]', '[]', '[]', '[]', ${providerMapping}, '[]')`.execute(db);
          }
        }
        const before = await getCatalogueGeneration(db);
        await up(db as unknown as Kysely<unknown>);
        const got = await sql<{ id: string; pipeline_tag: string | null; pipeline_tag_from: string | null }>`select id, pipeline_tag, pipeline_tag_from from models order by id`.execute(db);
        expect(got.rows.map((r) => [r.id, r.pipeline_tag, r.pipeline_tag_from])).toEqual([
          ["org/chat", "text-generation", "mapping"],
          ["org/mixed", null, null],
          ["org/no-details", null, null],
          ["org/tagged", "image-text-to-text", null],
          ["org/unmapped", null, null],
        ]);
        expect(await getCatalogueGeneration(db)).toBe(before + 1);
      } finally {
        await t.drop();
      }
    });
  });
}

import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { up } from "#app/db/migrations/0014-packed-weights-no-params.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { testDialects } from "#tests/support/test-databases.ts";

for (const dialect of testDialects()) {
  describe(`migration 0014 on ${dialect.name}`, () => {
    it("clears the parameter count of packed quantised weights, keeps every other, and moves the generation", async () => {
      const t = await dialect.create();
      try {
        const db = t.handle.db;
        const awq = { safetensors: { parameters: { I32: 9_000_000_000, F16: 2_900_000_000 }, total: 11_900_000_000 }, config: { quantization_config: { quant_method: "awq" } } };
        const rows: Array<{ id: string; params: number; tags: string[]; safetensors: unknown; config: unknown; gguf: unknown }> = [
          { id: "org/awq", params: 11_900_000_000, tags: [], ...awq, gguf: null },
          { id: "org/gptq-tagged", params: 2_000_000_000, tags: ["gptq"], safetensors: { parameters: { I32: 1_500_000_000, F16: 500_000_000 }, total: 2_000_000_000 }, config: null, gguf: null },
          { id: "org/awq-with-gguf", params: 11_900_000_000, tags: [], ...awq, gguf: { total: 72_700_000_000 } },
          { id: "org/plain", params: 7_000_000_000, tags: ["awq"], safetensors: { parameters: { BF16: 7_000_000_000 }, total: 7_000_000_000 }, config: null, gguf: null },
          { id: "org/int-buffers", params: 110_000_000, tags: [], safetensors: { parameters: { F32: 109_000_000, I64: 512 }, total: 109_000_512 }, config: null, gguf: null },
        ];
        for (const r of rows) {
          const inserted = await sql<{ rid: number }>`insert into models (id, author, params, downloads, likes, trending_score, gated, providers, tags, imported_at)
            values (${r.id}, 'org', ${r.params}, 0, 0, 0, 'false', '[]', ${JSON.stringify(r.tags)}, '2024-07-12T00:00:00Z') returning rid`.execute(db);
          const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
          await sql`insert into model_details (rid, languages, datasets, base_models, siblings, provider_mapping, spaces, safetensors, config, gguf)
            values (${inserted.rows[0]!.rid}, '[]', '[]', '[]', '[]', '[]', '[]', ${json(r.safetensors)}, ${json(r.config)}, ${json(r.gguf)})`.execute(db);
        }
        const before = await getCatalogueGeneration(db);
        await up(db as unknown as Kysely<unknown>);
        const got = await sql<{ id: string; params: number | string | null }>`select id, params from models order by id`.execute(db);
        expect(got.rows.map((r) => [r.id, r.params === null ? null : Number(r.params)])).toEqual([
          ["org/awq", null],
          ["org/awq-with-gguf", 72_700_000_000],
          ["org/gptq-tagged", null],
          ["org/int-buffers", 110_000_000],
          ["org/plain", 7_000_000_000],
        ]);
        expect(await getCatalogueGeneration(db)).toBe(before + 1);
        // Once cleared, nothing is left to change: run again, the generation stays.
        await up(db as unknown as Kysely<unknown>);
        expect(await getCatalogueGeneration(db)).toBe(before + 1);
      } finally {
        await t.drop();
      }
    });
  });
}

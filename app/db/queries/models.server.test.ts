import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getModelById } from "#app/db/queries/models.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { writeRecords } from "#tests/support/fixtures.ts";

for (const dialect of testDialects()) {
  describe(`getModelById on ${dialect.name}`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await dialect.create();
    });
    afterAll(async () => {
      await t?.drop();
    });

    it("derives transformersInfo on read for a row stored before the import derived it", async () => {
      const written = writeRecords([
        { id: "meta-llama/Meta-Llama-3-8B-Instruct", pipeline_tag: "text-generation", library_name: "transformers", tags: ["transformers", "safetensors", "llama", "text-generation", "conversational"], downloads: 1 },
      ]);
      try {
        await importPaths(t.handle, [written.file]);
      } finally {
        written.cleanup();
      }
      const imported = await getModelById(t.handle.db, "meta-llama/Meta-Llama-3-8B-Instruct");
      expect(imported!.transformersInfo).toMatchObject({ auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" });
      expect(imported!.transformersInfoSource).toBe("tags");

      // As a database from before migration 0007 holds it: no stored value, no source.
      await sql`update model_details set transformers_info = null, transformers_info_source = null`.execute(t.handle.db);
      const old = await getModelById(t.handle.db, "meta-llama/Meta-Llama-3-8B-Instruct");
      expect(old!.transformersInfo).toEqual(imported!.transformersInfo);
      expect(old!.transformersInfoSource).toBe("tags");
    });
  });
}

import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { up } from "#app/db/migrations/0008-undated-missing-counts.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { testDialects } from "#tests/support/test-databases.ts";

const DATE = "2024-07-11";

for (const dialect of testDialects()) {
  describe(`migration 0008 on ${dialect.name}`, () => {
    it("undates the zero counts the old importer dated, keeps every other row's date, and moves the generation once", async () => {
      const t = await dialect.create();
      try {
        const row = (id: string, p: { downloads: number; likes: number; created_at: string | null; stats_as_of: string | null }) => ({
          id,
          author: id.split("/")[0]!,
          imported_at: "2024-07-12T00:00:00Z",
          trending_score: 0,
          gated: "false",
          providers: "[]",
          tags: "[]",
          ...p,
        });
        await t.handle.db
          .insertInto("models")
          .values([
            row("org/no-counts", { downloads: 0, likes: 0, created_at: null, stats_as_of: DATE }),
            row("org/counted-downloads", { downloads: 5, likes: 0, created_at: null, stats_as_of: DATE }),
            row("org/counted-zeros", { downloads: 0, likes: 0, created_at: "2020-01-01T00:00:00.000Z", stats_as_of: DATE }),
            row("org/already-undated", { downloads: 0, likes: 0, created_at: null, stats_as_of: null }),
          ])
          .execute();
        const dates = async () =>
          Object.fromEntries((await t.handle.db.selectFrom("models").select(["id", "stats_as_of"]).orderBy("id").execute()).map((r) => [r.id, r.stats_as_of]));
        const before = await getCatalogueGeneration(t.handle.db);

        await up(t.handle.db as unknown as Kysely<unknown>, t.handle.dialect);
        expect(await dates()).toEqual({
          "org/already-undated": null,
          "org/counted-downloads": DATE,
          "org/counted-zeros": DATE,
          "org/no-counts": null,
        });
        expect(await getCatalogueGeneration(t.handle.db)).toBe(before + 1);

        // Again: nothing left to change, so the generation stays.
        await up(t.handle.db as unknown as Kysely<unknown>, t.handle.dialect);
        expect(await getCatalogueGeneration(t.handle.db)).toBe(before + 1);
      } finally {
        await t.drop();
      }
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpCatalogueGeneration, getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

describe.each(testDialects())("the catalogue generation on $name", (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await dialect.create();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("starts at 1 and moves by one per bump", async () => {
    const before = await getCatalogueGeneration(db.handle.db);
    expect(await bumpCatalogueGeneration(db.handle.db)).toBe(before + 1);
    expect(await getCatalogueGeneration(db.handle.db)).toBe(before + 1);
  });

  it("gives each of several import batches committing at once a generation of its own", async () => {
    const before = await getCatalogueGeneration(db.handle.db);
    // As the importer does: the bump in the batch's own transaction, with other work around it.
    const batches = Array.from({ length: 8 }, () =>
      db.handle.db.transaction().execute(async (trx) => {
        await getCatalogueGeneration(trx);
        return bumpCatalogueGeneration(trx);
      }),
    );
    const got = await Promise.all(batches);
    expect([...got].sort((a, b) => a - b)).toEqual(Array.from({ length: 8 }, (_, i) => before + 1 + i));
    expect(await getCatalogueGeneration(db.handle.db)).toBe(before + 8);
  });
});

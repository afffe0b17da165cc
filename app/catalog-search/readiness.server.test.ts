import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFacetIndex } from "#app/catalog-search/index/background.server.ts";
import { readiness } from "#app/catalog-search/readiness.server.ts";
import { openDatabase } from "#app/db/client.server.ts";
import { getCatalogueGeneration } from "#app/db/queries/meta.server.ts";
import { importItems } from "#app/import/importer.server.ts";
import type { SourceItem } from "#app/import/read-sources.server.ts";
import { healthResponse, startDraining } from "#app/utils/health.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

/** GET /readyz's answer in each state it can be in, on both engines (ADR 0041). */

async function* records(n: number): AsyncGenerator<SourceItem> {
  for (let i = 0; i < n; i++) yield { kind: "record", source: "test", line: i + 1, value: { id: `org/ready-${i}`, pipeline_tag: "fill-mask", downloads: i, likes: 0 } };
}

const statusOf = (answer: Awaited<ReturnType<typeof readiness>>, key: string) => answer.checks[key]?.[0]?.status;

describe.each(testDialects())("readiness on $name", (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await dialect.create();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("fails on an empty catalogue (a warn when an empty one was asked for), warns while the index builds, passes once it is built", async () => {
    const empty = await readiness(db.handle, { emptyAllowed: false });
    expect(empty.status).toBe("fail");
    expect(statusOf(empty, "catalogue:loaded")).toBe("fail");
    expect(statusOf(empty, "database:responseTime")).toBe("pass");
    expect(statusOf(empty, "migrations:pending")).toBe("pass");
    expect(healthResponse(empty).status).toBe(503);
    expect((await readiness(db.handle, { emptyAllowed: true })).status).toBe("warn");

    await importItems(db.handle, records(50));
    const building = await readiness(db.handle, { emptyAllowed: false });
    expect(building.status).toBe("warn");
    expect(statusOf(building, "listing-index:generation")).toBe("warn");
    expect(building.checks["listing-index:generation"]?.[0]?.output).toMatch(/being built/);
    expect(healthResponse(building).status).toBe(200);

    const generation = await getCatalogueGeneration(db.handle.db);
    await ensureFacetIndex(db.handle, generation);
    const ready = await readiness(db.handle, { emptyAllowed: false });
    expect(ready.status).toBe("pass");
    expect(ready.checks["listing-index:generation"]?.[0]?.observedValue).toBe(generation);
    const res = healthResponse(ready);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/health\+json/);
  });
});

describe("readiness of a database that is not ready", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-ready-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("fails naming the migrations not applied", async () => {
    const handle = openDatabase(`sqlite:${path.join(dir, "unmigrated.db")}`);
    try {
      const answer = await readiness(handle, { emptyAllowed: true });
      expect(answer.status).toBe("fail");
      expect(statusOf(answer, "migrations:pending")).toBe("fail");
      expect(answer.checks["migrations:pending"]?.[0]?.output).toMatch(/0001-catalogue/);
    } finally {
      await handle.close();
    }
  });

  it("fails when the database does not answer", async () => {
    // A PostgreSQL server that is not there: nothing listens on port 1.
    const handle = openDatabase("postgres://modelyard:modelyard@127.0.0.1:1/modelyard");
    try {
      const answer = await readiness(handle, { emptyAllowed: true });
      expect(answer.status).toBe("fail");
      expect(statusOf(answer, "database:responseTime")).toBe("fail");
      expect(answer.checks["database:responseTime"]?.[0]?.output).toMatch(/postgres database does not answer/);
    } finally {
      await handle.close();
    }
  });

  it("fails once shutdown has begun", async () => {
    const handle = openDatabase(`sqlite:${path.join(dir, "draining.db")}`);
    try {
      startDraining();
      const answer = await readiness(handle, { emptyAllowed: true });
      expect(statusOf(answer, "server:shutdown")).toBe("fail");
      expect(answer.status).toBe("fail");
    } finally {
      await handle.close();
    }
  });
});

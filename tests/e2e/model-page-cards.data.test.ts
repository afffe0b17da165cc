/** Data suite: all 48 real cards of the shared data, imported with `modelyard import`, render on their model pages. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";
import type { TestServer } from "#tests/e2e/support/server.ts";
import { cardPageFailures, importIntoServer, startModelPageServer } from "#tests/e2e/model-page-support.ts";

const cardsDir = path.join(sharedDataDir(), "model-cards");
const cards = fs.readdirSync(cardsDir).filter((f) => /__.+\.md$/.test(f));
let server: TestServer;
let db: DatabaseHandle;

beforeAll(async () => {
  ({ server, db } = await startModelPageServer());
  await importIntoServer(server, cardsDir);
});

afterAll(async () => {
  await db?.close();
  await server?.stop();
});

describe("the shared card corpus on the model page", () => {
  it("has the 48 cards to check", () => {
    expect(cards.length).toBe(48);
  });

  it("renders each one with anchored headings and no front matter", { timeout: 300_000 }, async () => {
    expect(await cardPageFailures(server.url, cardsDir, cards)).toEqual([]);
  });
});

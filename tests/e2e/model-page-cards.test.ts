/**
 * Real cards (the in-repo fixture), imported with `modelyard import`, render on their model pages:
 * 200, the card (not the escaped-source fallback), front matter gone, and every heading with an id
 * and a permalink. Cardless models get the metadata summary; unknown ids a 404 with suggestions.
 * The data suite runs the same check over all 48 shared cards (model-page-cards.data.test.ts).
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { writeImportFixtures } from "#tests/support/fixtures.ts";
import { setupDatabase, setupServer } from "#tests/e2e/support/journey.ts";
import { cardPageFailures, importIntoServer } from "#tests/e2e/model-page-support.ts";

const fixtures = writeImportFixtures();
const cards = fs.readdirSync(fixtures.cards);
// The tests read the cards again, so the fixture folder stays until the end.
afterAll(() => fixtures.cleanup());
const server = setupServer({}, (s) => importIntoServer(s, fixtures.cards).then(() => undefined));
const db = setupDatabase(server);

describe("real model cards on the model page", () => {
  it("renders each one with anchored headings and no front matter", { timeout: 300_000 }, async () => {
    expect(cards.length).toBeGreaterThanOrEqual(8);
    expect(await cardPageFailures(server.url, fixtures.cards, cards)).toEqual([]);
  });

  it("resolves relative images against the model's files", async () => {
    const html = await (await fetch(`${server.url}/BAAI/bge-m3`)).text();
    // ](./imgs/miracl.jpg) in the card
    expect(html).toMatch(/<img[^>]+src="https:\/\/huggingface\.co\/BAAI\/bge-m3\/resolve\/[^/"]+\/imgs\/miracl\.jpg"/);
    const bloom = await (await fetch(`${server.url}/bigscience/bloom`)).text();
    expect(bloom).toContain('aria-label="Table of contents"');
  });

  it("summarises the metadata of a model without a card", async () => {
    const row = await db.db
      .selectFrom("models")
      .leftJoin("model_details", "model_details.rid", "models.rid")
      .select(["models.id"])
      .where("model_details.card_md", "is", null)
      .where("models.pipeline_tag", "is not", null)
      .orderBy("models.downloads", "desc")
      .executeTakeFirstOrThrow();
    const html = await (await fetch(`${server.url}/${row.id}`)).text();
    expect(html).toContain("data-card-empty");
    expect(html).toContain(`This catalogue has no model card for ${row.id}`);
    expect(html).not.toContain("have not written");
    expect(html).toMatch(new RegExp(`${row.id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is an? `));
  });

  it("answers unknown ids with a 404 that offers close matches", async () => {
    const res = await fetch(`${server.url}/bigscience/bloom-nonexistent-size`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Model not found");
    expect(html).toMatch(/href="\/bigscience\/bloom[^"]*"/);
    // One segment, neither a model nor an author: the same suggestions, as links.
    const single = await fetch(`${server.url}/bloom-nonexistent-size`);
    expect(single.status).toBe(404);
    const body = await single.text();
    expect(body).toContain("No model or author &#x27;bloom-nonexistent-size&#x27; in this catalogue.");
    expect(body).toMatch(/<ul[^>]*data-suggestions=""[^>]*>.*href="\/bigscience\/bloom[^"]*"/s);
  });

  it("serves /api/snippets as JSON with 4xx for bad input", async () => {
    const ok = await fetch(`${server.url}/api/snippets?model=meta-llama/Meta-Llama-3-8B-Instruct&provider=together&stream=1`);
    expect(ok.status).toBe(200);
    const panel = (await ok.json()) as { state: { provider: string; streaming: boolean }; languages: Array<{ clients: Array<{ text: string; html: string }> }> };
    expect(panel.state).toMatchObject({ provider: "together", streaming: true });
    expect(panel.languages.length).toBeGreaterThan(0);
    for (const [query, status] of [
      ["", 400],
      ["model=meta-llama/Meta-Llama-3-8B-Instruct&provider=nope", 400],
      ["model=meta-llama/Meta-Llama-3-8B-Instruct&bill_to=%22%3Bx", 400],
      ["model=no/such-model", 404],
      ["model=bigscience/bloom", 400],
    ] as const) {
      const res = await fetch(`${server.url}/api/snippets?${query}`);
      expect(res.status, query).toBe(status);
      const body = (await res.json()) as { error: { message: string } };
      expect(typeof body.error.message).toBe("string");
    }
  });
});

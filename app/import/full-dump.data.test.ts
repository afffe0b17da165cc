/**
 * Data suite: the whole 760k-row Hub list dump imports into the embedded database, every row
 * accounted for, and the stored catalogue agrees with the dump's own facet counts
 * (facet-counts-2024-07-11.json, derived from the same pages).
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";
import { importPaths } from "#app/import/importer.server.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { isChatModel } from "#app/catalog/chat-model.ts";
import { compareTaskFor } from "#app/compare/compare-tasks.ts";
import { snippetTaskFor } from "#app/snippets/providers.ts";

const DATA = sharedDataDir();
const facetCounts = z
  .object({ total: z.number(), pipeline_tag: z.record(z.string(), z.number()), library_name: z.record(z.string(), z.number()) })
  .parse(JSON.parse(fs.readFileSync(path.join(DATA, "facet-counts-2024-07-11.json"), "utf8")));
// SQLite only: PostgreSQL runs the same importer code over the fixtures in `npm test`, and one
// 760k import keeps the data suite within CI's budget.
const sqlite = testDialects().find((d) => d.name === "sqlite")!;

describe("the 760k-row Hub dump on SQLite", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await sqlite.create();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("imports every row and agrees with the dump's facet counts", { timeout: 900_000 }, async () => {
    const summary = await importPaths(t.handle, [path.join(DATA, "hub-models-2024-07-11.jsonl.gz")], { statsAsOf: "2024-07-11" });
    expect(summary.rows).toBe(facetCounts.total);
    // One 2024 row is refused on purpose, with its line and reason: cunyue/test carries a tag of
    // thousands of characters (the schema caps a tag at 300). Every id in the dump is accepted.
    console.log(`rejected ${summary.rejected}: ${summary.rejections.map((r) => `line ${r.line}: ${r.reason}`).join("; ")}`);
    expect(summary.rejections.map((r) => r.line)).toEqual([467_330]);
    expect(summary.rejections[0]!.reason).toMatch(/tags\.0/);
    const stored = await sql<{ n: number }>`select count(*) as n from models`.execute(t.handle.db);
    const total = Number(stored.rows[0]!.n);
    // Rows that repeat an id (the list pages overlap) merge into one model.
    expect(total).toBe(summary.inserted);
    expect(total).toBeGreaterThan(facetCounts.total * 0.99);
    const lost = facetCounts.total - total;
    const byTask = await sql<{ tag: string | null; n: number }>`select pipeline_tag as tag, count(*) as n from models group by pipeline_tag`.execute(t.handle.db);
    const tasks = new Map(byTask.rows.map((r) => [r.tag ?? "(none)", Number(r.n)]));
    for (const [task, n] of Object.entries(facetCounts.pipeline_tag).slice(0, 10)) {
      // Merged duplicates and rejected rows can only lower a count, and by no more than their number.
      expect(tasks.get(task), task).toBeLessThanOrEqual(n);
      expect(tasks.get(task), task).toBeGreaterThanOrEqual(n - lost);
    }
  });

  // Issue 32: list rows carry their bases only as tags, and the page must still show the tree.
  it("every model whose tags name a base has its model tree on its page", { timeout: 600_000 }, async () => {
    const rows = await sql<{ id: string; base_id: string }>`select m.id, b.base_id from model_bases b join models m on m.rid = b.rid order by m.id`.execute(t.handle.db);
    expect(rows.rows.length).toBeGreaterThan(1000);
    const basesOf = new Map<string, Set<string>>();
    for (const r of rows.rows) basesOf.set(r.id, (basesOf.get(r.id) ?? new Set()).add(r.base_id));
    const missing: string[] = [];
    for (const [id, bases] of basesOf) {
      const model = await getModelById(t.handle.db, id);
      const shown = new Set(model?.baseModels.map((b) => b.id));
      if ([...bases].some((b) => !shown.has(b))) missing.push(id);
    }
    console.log(`${basesOf.size} models with a base model; ${missing.length} without their tree`);
    expect(missing.slice(0, 20)).toEqual([]);
  });

  // Issue 32: a model that chats (by its tag, its mapping or its own chat template) is never shown
  // as completion-only, whether it came as a list row or, after the 8.6k full records are merged
  // onto the rows, with its config and chat template.
  it("no text model that chats is shown as completion-only, list rows and full records alike", { timeout: 600_000 }, async () => {
    const check = async () => {
      const rows = await sql<{ id: string }>`select id from models where pipeline_tag in ('text-generation', 'image-text-to-text') order by id`.execute(t.handle.db);
      let chat = 0;
      const wrong: string[] = [];
      for (const { id } of rows.rows) {
        const model = await getModelById(t.handle.db, id);
        if (!model) continue;
        if (model.tags.includes("conversational") && !isChatModel(model)) wrong.push(`${id}: tagged conversational, not chat`);
        if (!isChatModel(model)) continue;
        chat += 1;
        if (snippetTaskFor(model) !== "conversational") wrong.push(`${id}: snippets for ${snippetTaskFor(model)}`);
        if (compareTaskFor(model) === "text-completion") wrong.push(`${id}: compared as text completion`);
      }
      return { chat, wrong };
    };
    const listRows = await check();
    console.log(`list rows: ${listRows.chat} chat models`);
    expect(listRows.wrong.slice(0, 20)).toEqual([]);
    expect(listRows.chat).toBeGreaterThan(10_000);
    const summary = await importPaths(t.handle, [path.join(DATA, "model-details-2024-07.jsonl.gz")], { statsAsOf: "2024-07-11" });
    expect(summary.rows).toBe(8650);
    const full = await check();
    console.log(`with the full records: ${full.chat} chat models`);
    expect(full.wrong.slice(0, 20)).toEqual([]);
    expect(full.chat).toBeGreaterThanOrEqual(listRows.chat);
  });
});

/**
 * Real model cards (the in-repo fixtures: raw README.md files with front matter, and card bodies)
 * and every task guide shipped in @huggingface/tasks must render without error, pass the safety
 * audit, and give every heading an id and an anchor. The whole card corpus runs in the data suite
 * (real-cards.data.test.ts).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { cardBodies, modelCards } from "#tests/support/fixtures.ts";
import { expectAnchoredHeadings, expectBodiesRender, expectCardRenders } from "#tests/support/markdown-assertions.ts";

const tasksDir = path.resolve(process.cwd(), "node_modules/@huggingface/tasks/src/tasks");
const cards = Object.entries(modelCards()).sort(([a], [b]) => a.localeCompare(b));
const taskGuides = readdirSync(tasksDir)
  .filter((d) => existsSync(path.join(tasksDir, d, "about.md")))
  .sort();

describe("real model cards (fixtures)", () => {
  it.each(cards)("%s", async (file, md) => {
    await expectCardRenders(file, md, renderMarkdown);
  });

  it("renders the sampled card bodies", async () => {
    const bodies = cardBodies();
    const withHeadings = await expectBodiesRender(bodies, renderMarkdown);
    expect(withHeadings).toBeGreaterThan(bodies.length / 2);
  });
});

describe("task guides from @huggingface/tasks", () => {
  it("ships task guides", () => {
    expect(taskGuides.length).toBeGreaterThan(30);
  });

  it.each(taskGuides)("%s/about.md", async (task) => {
    const md = readFileSync(path.join(tasksDir, task, "about.md"), "utf8");
    const result = await renderMarkdown(md);
    expectAnchoredHeadings(result);
    expect(result.headings.length).toBeGreaterThan(0);
  });
});

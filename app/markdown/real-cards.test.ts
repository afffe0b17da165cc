/**
 * Every real model card in ../shared/data/model-cards (raw README.md files with front matter, and
 * 758 card bodies) and every task guide shipped in @huggingface/tasks must render without error,
 * pass the safety audit, and give every heading an id and an anchor.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { auditHtml } from "#app/markdown/audit-html.ts";
import { type RenderedMarkdown, renderMarkdown } from "#app/markdown/render-markdown.server.ts";

const cardsDir = path.resolve(process.cwd(), "../shared/data/model-cards");
const tasksDir = path.resolve(process.cwd(), "node_modules/@huggingface/tasks/src/tasks");

const cardFiles = readdirSync(cardsDir).filter((f) => f.endsWith(".md")).sort();
const taskGuides = readdirSync(tasksDir)
  .filter((d) => existsSync(path.join(tasksDir, d, "about.md")))
  .sort();

function expectAnchoredHeadings(result: RenderedMarkdown): void {
  expect(result.error).toBeNull();
  expect(auditHtml(result.html, { idPrefix: "md-" })).toEqual([]);
  // Every <hN> in the output except the footnotes' hidden label is a listed heading.
  const headingTags = result.html.match(/<h[1-6][\s>]/g) ?? [];
  const hiddenLabels = result.html.match(/<h2 class="sr-only"/g) ?? [];
  expect(result.headings.length).toBe(headingTags.length - hiddenLabels.length);
  const ids = new Set<string>();
  for (const heading of result.headings) {
    expect(heading.id).toMatch(/^md-./);
    expect(ids.has(heading.id)).toBe(false);
    ids.add(heading.id);
    expect(result.html).toContain(`id="${heading.id}"`);
    expect(result.html).toContain(`<a class="heading-anchor" href="#${heading.id}"`);
  }
}

describe("real model cards", () => {
  it("finds the shared data", () => {
    expect(cardFiles.length).toBeGreaterThanOrEqual(48);
  });

  it.each(cardFiles)("%s", async (file) => {
    const md = readFileSync(path.join(cardsDir, file), "utf8");
    const result = await renderMarkdown(md, {
      resolveRelativeUrl: (p, kind) => `/models/${file}/${kind === "image" ? "resolve" : "blob"}/main/${p}`,
      cacheKey: file,
    });
    expectAnchoredHeadings(result);
    expect(result.headings.length).toBeGreaterThan(0);
    if (md.startsWith("---")) {
      expect(result.frontMatter.error).toBeNull();
      expect(result.frontMatter.data).not.toBeNull();
      expect(result.html).not.toMatch(/^<hr>/);
    }
  });

  it("renders the 758 sampled card bodies", async () => {
    const row = z.object({ modelId: z.string(), card_body: z.string() });
    const lines = gunzipSync(readFileSync(path.join(cardsDir, "card-bodies-758.jsonl.gz")))
      .toString("utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(lines.length).toBe(758);
    let withHeadings = 0;
    for (const line of lines) {
      const card = row.parse(JSON.parse(line));
      const result = await renderMarkdown(card.card_body, { stripFrontMatter: false });
      try {
        expectAnchoredHeadings(result);
      } catch (error) {
        throw new Error(`${card.modelId}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (result.headings.length > 0) withHeadings++;
    }
    expect(withHeadings).toBeGreaterThan(600);
  }, 240_000);
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

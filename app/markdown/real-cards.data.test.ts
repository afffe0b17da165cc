/**
 * Data suite: every real model card in the shared data (48 raw README.md files and 758 card
 * bodies) renders without error, passes the safety audit, and anchors every heading.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { renderMarkdown } from "#app/markdown/render-markdown.server.ts";
import { expectBodiesRender, expectCardRenders } from "#tests/support/markdown-assertions.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

const cardsDir = path.join(sharedDataDir(), "model-cards");
const cardFiles = readdirSync(cardsDir).filter((f) => f.endsWith(".md")).sort();

describe("the shared model-card corpus", () => {
  it("has the 48 cards", () => {
    expect(cardFiles.length).toBeGreaterThanOrEqual(48);
  });

  it.each(cardFiles)("%s", async (file) => {
    await expectCardRenders(file, readFileSync(path.join(cardsDir, file), "utf8"), renderMarkdown);
  });

  it("renders the 758 sampled card bodies", async () => {
    const row = z.object({ modelId: z.string(), card_body: z.string() });
    const bodies = gunzipSync(readFileSync(path.join(cardsDir, "card-bodies-758.jsonl.gz")))
      .toString("utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => row.parse(JSON.parse(line)));
    expect(bodies.length).toBe(758);
    expect(await expectBodiesRender(bodies, renderMarkdown)).toBeGreaterThan(600);
  }, 240_000);
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderCatalogIndex } from "../../scripts/generate-catalog-index.ts";

describe("catalog-index.generated.ts", () => {
  it("matches the installed @huggingface/tasks (rerun scripts/generate-catalog-index.ts if not)", () => {
    const file = fs.readFileSync(path.join(import.meta.dirname, "catalog-index.generated.ts"), "utf8");
    expect(file).toBe(renderCatalogIndex());
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { START_SCRIPT } from "#cli/serve-flags.ts";

describe("serve flags", () => {
  it("npm start passes the same Node flags and environment as the benchmarks and browser tests use", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts["start"]).toBe(START_SCRIPT);
    expect(pkg.scripts["start"]).toBe("MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 node --max-old-space-size=256 --max-semi-space-size=4 --v8-pool-size=0 bin/modelyard.mjs serve");
  });
});

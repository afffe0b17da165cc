import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVE_NODE_FLAGS } from "#cli/serve-flags.ts";

describe("serve flags", () => {
  it("npm start passes the same Node flags as the benchmarks and browser tests use", () => {
    const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "..", "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts["start"]).toBe(`node ${SERVE_NODE_FLAGS.join(" ")} bin/modelyard.mjs serve`);
  });
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("modelyard build on a first start", () => {
  it("prints a few progress lines, keeps the full output, and React Router has no future-flag warning left", { timeout: 300_000 }, () => {
    // As on a fresh clone: no stamp, so the build runs (it swaps the new build in whole).
    fs.rmSync(path.join(ROOT, "build", ".source-stamp"), { force: true });
    const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "build"], { cwd: ROOT, encoding: "utf8" });
    expect(res.status, res.stderr).toBe(0);
    const lines = `${res.stdout}${res.stderr}`.split("\n").filter((l) => l.trim() !== "");
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(lines.at(-1)).toMatch(/built in [\d.]+ s/);
    const log = fs.readFileSync(path.join(ROOT, "build", ".build.log"), "utf8");
    // The log is Vite's own output, so the absence below means something.
    expect(log).toMatch(/modules transformed/);
    expect(log).not.toMatch(/Future Flag Warning/);
  });
});

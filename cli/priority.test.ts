import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("lowerCpuPriority", () => {
  it("makes the process ten steps nicer than it started, at most 19", () => {
    // In a child: a priority once lowered cannot be raised back without privilege.
    const script = `import os from "node:os"; import { lowerCpuPriority } from "#cli/priority.ts";
      const before = os.getPriority(); const after = lowerCpuPriority();
      console.log(JSON.stringify({ before, after, seen: os.getPriority() }));`;
    const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(res.status, res.stderr).toBe(0);
    const { before, after, seen } = JSON.parse(res.stdout) as { before: number; after: number; seen: number };
    expect(before).toBe(os.getPriority());
    expect(after).toBe(Math.min(19, before + 10));
    expect(seen).toBe(after);
  });
});

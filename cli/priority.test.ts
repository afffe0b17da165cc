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

  it("lowers every thread of the process and the children it has started, not only the main thread", () => {
    // V8's helper threads exist before any script runs; a child started before the call must be
    // reached too (tsx's esbuild service is one).
    const script = `import os from "node:os"; import fs from "node:fs"; import { spawn } from "node:child_process";
      import { lowerCpuPriority, threadIds } from "#cli/priority.ts";
      const child = spawn("sleep", ["30"], { stdio: "ignore" });
      await new Promise((r) => child.once("spawn", r));
      const before = threadIds().map((t) => os.getPriority(t));
      const after = lowerCpuPriority();
      const threads = threadIds().map((t) => os.getPriority(t));
      const childNice = os.getPriority(child.pid);
      child.kill();
      console.log(JSON.stringify({ before, after, threads, childNice }));`;
    const res = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(res.status, res.stderr).toBe(0);
    const { before, after, threads, childNice } = JSON.parse(res.stdout) as { before: number[]; after: number; threads: number[]; childNice: number };
    expect(before.length).toBeGreaterThan(1);
    expect(new Set(before)).toEqual(new Set([os.getPriority()]));
    expect(after).toBe(Math.min(19, os.getPriority() + 10));
    expect(threads.length).toBeGreaterThanOrEqual(before.length);
    expect(new Set(threads)).toEqual(new Set([after]));
    expect(childNice).toBe(after);
  });
});

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { summarizeRun } from "./test-summary.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-summary-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs real Vitest over the given test files with the summary reporter and returns what it wrote. */
function runVitest(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(tmp, "run-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const out = path.join(dir, "summary.json");
  const res = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--root", dir, `--reporter=${path.join(ROOT, "scripts", "summary-reporter.mjs")}`],
    { cwd: dir, env: { ...process.env, MODELYARD_SUMMARY_FILE: out }, encoding: "utf8" },
  );
  const report = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, "utf8")) as Parameters<typeof summarizeRun>[0]) : null;
  return { report, exitCode: res.status };
}

const head = 'import { afterAll, beforeAll, describe, expect, it } from "vitest";\n';

describe("the npm test summary", () => {
  it("counts each kind of failure from a real Vitest run", () => {
    const { report, exitCode } = runVitest({
      "ok.test.ts": `${head}it("passes", () => expect(1).toBe(1));\nit("also passes", () => expect(2).toBe(2));\n`,
      "assert.test.ts": `${head}it("passes", () => expect(1).toBe(1));\nit("fails", () => expect(1).toBe(2));\n`,
      "before.test.ts": `${head}describe("s", () => {\n  beforeAll(() => { throw new Error("boom in beforeAll"); });\n  it("a", () => {});\n  it("b", () => {});\n});\n`,
      "after.test.ts": `${head}afterAll(() => { throw new Error("boom in afterAll"); });\nit("runs", () => expect(1).toBe(1));\n`,
      "load.test.ts": `${head}import "./missing-module.ts";\nit("never runs", () => {});\n`,
      "crash.test.ts": `${head}throw new Error("crash while loading");\n`,
      "skips.test.ts": `${head}it.skip("bare skip", () => {});\nit.todo("todo");\nit("skipped with a reason", (ctx) => ctx.skip("needs a GPU"));\n`,
      "unhandled.test.ts": `${head}it("leaves a rejection behind", async () => { void Promise.reject(new Error("stray rejection")); await new Promise((r) => setTimeout(r, 50)); });\n`,
    });
    expect(exitCode).not.toBe(0);
    const s = summarizeRun(report, exitCode);
    // ok 2 + assert 1 + after 1 + unhandled 1 passed.
    expect(s.passed).toBe(5);
    // assert 1, before 2 (its unrun tests), after 1 (the hook), load 1, crash 1, bare skip 1, todo 1, stray rejection 1.
    expect(s.failed).toBe(9);
    expect(s.skipped).toBe(1);
    expect(s.problems.join("\n")).toMatch(/boom in beforeAll/);
    expect(s.problems.join("\n")).toMatch(/boom in afterAll/);
    expect(s.problems.join("\n")).toMatch(/missing-module/);
    expect(s.problems.join("\n")).toMatch(/crash while loading/);
    expect(s.problems.join("\n")).toMatch(/skipped without a reason/);
    expect(s.problems.join("\n")).toMatch(/stray rejection/);
  });

  it("counts a clean run as passed only", () => {
    const { report, exitCode } = runVitest({ "ok.test.ts": `${head}it("passes", () => expect(1).toBe(1));\n` });
    expect(exitCode).toBe(0);
    expect(summarizeRun(report, exitCode)).toEqual({ passed: 1, failed: 0, skipped: 0, problems: [] });
  });

  it("counts a run that left no report, or failed with every test passing, as a failure", () => {
    expect(summarizeRun(null, 1)).toMatchObject({ passed: 0, failed: 1 });
    const passing = { modules: [{ file: "a.test.ts", state: "passed", errors: [], tests: [{ name: "t", state: "passed", note: null }] }], unhandledErrors: [] };
    expect(summarizeRun(passing, 1)).toMatchObject({ passed: 1, failed: 1 });
    expect(summarizeRun(passing, 0)).toMatchObject({ passed: 1, failed: 0 });
  });
});

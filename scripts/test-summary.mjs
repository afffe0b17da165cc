import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Counts one Vitest run for `npm test`'s last line, from the file scripts/summary-reporter.mjs
// writes. The rules, so that the line never hides a failure:
//  - a passed test is passed; a failed test is failed;
//  - a test skipped with a reason (`ctx.skip("why")`) is skipped; any other test that did not
//    run (a bare skip or todo, or a test left unrun because its file failed to load or a hook
//    failed) is failed;
//  - a module error (a file that failed to load, a failing beforeAll/afterAll) with no failed
//    test to show for it is one failure;
//  - every error raised outside a test is one failure;
//  - a run whose process failed with nothing above to show for it is one failure.

/**
 * @param {{modules: Array<{file: string, state: string, errors: string[], tests: Array<{name: string, state: string, note: string | null}>}>, unhandledErrors: string[]} | null} report
 * @param {number | null} exitCode
 * @returns {{passed: number, failed: number, skipped: number, problems: string[]}}
 */
export function summarizeRun(report, exitCode) {
  const totals = { passed: 0, failed: 0, skipped: 0, problems: [] };
  if (!report) {
    totals.failed = 1;
    totals.problems.push(`the test run ended (exit code ${exitCode}) without a report: it crashed before counting`);
    return totals;
  }
  for (const m of report.modules) {
    let failedHere = 0;
    for (const t of m.tests) {
      if (t.state === "passed") totals.passed++;
      else if (t.state === "skipped" && t.note && m.errors.length === 0) totals.skipped++;
      else {
        failedHere++;
        if (t.state !== "failed") totals.problems.push(`${m.file}: "${t.name}" did not run (${t.state}${t.note ? `: ${t.note}` : m.errors.length ? ", its file or suite failed" : ", skipped without a reason"})`);
      }
    }
    if (m.errors.length > 0 && failedHere === 0) failedHere = 1;
    for (const e of m.errors) totals.problems.push(`${m.file}: ${e}`);
    if (failedHere === 0 && m.state === "failed") {
      failedHere = 1;
      totals.problems.push(`${m.file}: failed without a reported error`);
    }
    totals.failed += failedHere;
  }
  for (const e of report.unhandledErrors) {
    totals.failed++;
    totals.problems.push(`error outside any test: ${e}`);
  }
  if (exitCode !== 0 && totals.failed === 0) {
    totals.failed = 1;
    totals.problems.push(`the test process exited with code ${exitCode} although every test passed`);
  }
  return totals;
}

/**
 * Runs `vitest run <args>` in `root` with the default reporter on the terminal and the summary
 * reporter to a temporary file, and counts the run.
 * @returns {{passed: number, failed: number, skipped: number, problems: string[], exitCode: number | null}}
 */
export function runCountedVitest(root, label, args) {
  const report = path.join(os.tmpdir(), `modelyard-vitest-${process.pid}-${label.replace(/\W+/g, "-")}.json`);
  fs.rmSync(report, { force: true });
  console.log(`\n▶ ${label}`);
  const res = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", ...args, "--reporter=default", `--reporter=${path.join(root, "scripts", "summary-reporter.mjs")}`],
    { cwd: root, stdio: "inherit", env: { ...process.env, MODELYARD_SUMMARY_FILE: report } },
  );
  const counted = summarizeRun(fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, "utf8")) : null, res.status);
  fs.rmSync(report, { force: true });
  return { ...counted, exitCode: res.status };
}

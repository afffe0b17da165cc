#!/usr/bin/env node
// `npm test`: the whole suite, as a new user or CI runs it.
//  1. makes sure Chromium is there: CHROMIUM_PATH, else Debian's /usr/bin/chromium (installed with
//     apt when missing and running as root);
//  2. writes React Router's route types, then type-checks and lints at once (type-aware rules and
//     import boundaries, docs/decisions/0020-lint-boundaries.md);
//  3. builds the web app (browser tests run the real production server);
//  4. runs unit and database tests (SQLite always; PostgreSQL too when TEST_DATABASE_URL is set);
//  5. runs the browser journeys in Chromium;
// and ends with one line "N passed, N failed, N skipped" (scripts/test-summary.mjs says what
// counts as what: a failed file, hook or load is a failure, and only a skip with a reason skips).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCountedVitest } from "./test-summary.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEBIAN_CHROMIUM = "/usr/bin/chromium";
// The same browser tests/e2e/support/browser.ts launches; an empty value counts as unset.
const CHROMIUM = process.env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = [];

function run(label, cmd, args, opts = {}) {
  console.log(`\n▶ ${label}`);
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...opts.env } });
  if (res.status !== 0) {
    failedSteps.push(label);
    totals.failed++;
    problems.push(`${label} failed (exit code ${res.status})`);
  }
  return res.status === 0;
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  if (CHROMIUM !== DEBIAN_CHROMIUM) {
    console.error(`Chromium is missing at ${CHROMIUM} (CHROMIUM_PATH). Point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's ${DEBIAN_CHROMIUM}.`);
    return false;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium fonts-dejavu-core`);
    return false;
  }
  console.log("Chromium is missing: installing Debian's chromium with apt…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const res = spawnSync("apt-get", ["install", "-y", "-qq", "chromium", "fonts-dejavu-core"], { stdio: "inherit", env });
  return res.status === 0 && fs.existsSync(CHROMIUM);
}

const problems = [];

/**
 * Runs steps at once, each with its output held and printed whole when it ends, so the log reads
 * as if they had run one after the other. The type-check and the lint each hold about one core.
 */
async function runTogether(steps) {
  const results = await Promise.all(
    steps.map(
      ({ label, cmd, args }) =>
        new Promise((resolve) => {
          const child = spawn(cmd, args, { cwd: ROOT, env: process.env });
          let out = "";
          child.stdout.on("data", (d) => (out += d));
          child.stderr.on("data", (d) => (out += d));
          child.on("error", (e) => resolve({ label, status: null, out: out + String(e) }));
          child.on("close", (status) => resolve({ label, status, out }));
        }),
    ),
  );
  for (const { label, status, out } of results) {
    console.log(`\n▶ ${label}`);
    if (out) process.stdout.write(out);
    if (status !== 0) {
      failedSteps.push(label);
      totals.failed++;
      problems.push(`${label} failed (exit code ${status})`);
    }
  }
}

function vitest(label, args) {
  const counted = runCountedVitest(ROOT, label, args);
  totals.passed += counted.passed;
  totals.failed += counted.failed;
  totals.skipped += counted.skipped;
  problems.push(...counted.problems.map((p) => `${label}: ${p}`));
  if (counted.exitCode !== 0) failedSteps.push(label);
}

const started = Date.now();
const pg = process.env.TEST_DATABASE_URL;
console.log(
  `Modelyard test suite — database tests on SQLite${pg ? " and PostgreSQL (TEST_DATABASE_URL)" : " only (set TEST_DATABASE_URL=postgres://… to include PostgreSQL)"}.`,
);
if (!ensureChromium()) {
  failedSteps.push("chromium");
  totals.failed++;
  problems.push(`browser journeys: not run, Chromium is missing at ${CHROMIUM}`);
}
const bin = (name, ...rest) => [path.join(ROOT, "node_modules", ...rest)];
// Both read the route types typegen writes.
if (run("route types", process.execPath, [...bin("rr", "@react-router", "dev", "bin.js"), "typegen"])) {
  await runTogether([
    { label: "type-check", cmd: process.execPath, args: [...bin("tsc", "typescript", "bin", "tsc"), "--noEmit", "-p", "."] },
    { label: "lint", cmd: process.execPath, args: [...bin("eslint", "eslint", "bin", "eslint.js"), "."] },
  ]);
}
run("build", process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "build"]);
vitest("unit and database tests", []);
if (fs.existsSync(CHROMIUM)) vitest("browser journeys", ["--config", "vitest.e2e.config.ts"]);

const mins = ((Date.now() - started) / 60000).toFixed(1);
if (problems.length) console.log(`\nNot counted as passed:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
if (failedSteps.length) console.log(`\nFailed steps: ${[...new Set(failedSteps)].join(", ")} (${mins} min)`);
else console.log(`\nAll steps passed (${mins} min).`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);

#!/usr/bin/env node
// `npm test`: the whole suite, as a new user or CI runs it.
//  1. makes sure Debian Chromium is there (installs it with apt when missing and running as root);
//  2. type-checks;
//  3. lints (type-aware rules and import boundaries, docs/decisions/0020-lint-boundaries.md);
//  4. builds the web app (browser tests run the real production server);
//  5. runs unit and database tests (SQLite always; PostgreSQL too when TEST_DATABASE_URL is set);
//  6. runs the browser journeys in Chromium;
// and ends with one line "N passed, N failed, N skipped" (scripts/test-summary.mjs says what
// counts as what: a failed file, hook or load is a failure, and only a skip with a reason skips).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCountedVitest } from "./test-summary.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const CHROMIUM = "/usr/bin/chromium";
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
run("type-check", process.execPath, [...bin("rr", "@react-router", "dev", "bin.js"), "typegen"]) &&
  run("type-check", process.execPath, [...bin("tsc", "typescript", "bin", "tsc"), "--noEmit", "-p", "."]);
run("lint", process.execPath, [...bin("eslint", "eslint", "bin", "eslint.js"), "."]);
run("build", process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "build"]);
vitest("unit and database tests", []);
if (fs.existsSync(CHROMIUM)) vitest("browser journeys", ["--config", "vitest.e2e.config.ts"]);

const mins = ((Date.now() - started) / 60000).toFixed(1);
if (problems.length) console.log(`\nNot counted as passed:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
if (failedSteps.length) console.log(`\nFailed steps: ${[...new Set(failedSteps)].join(", ")} (${mins} min)`);
else console.log(`\nAll steps passed (${mins} min).`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);

#!/usr/bin/env node
// `npm run test:data`: the data suite, the tests over the large shared data (*.data.test.ts:
// the 760k-row import, the full chat-template conformance and validation, the real-card corpus).
// It reads MODELYARD_SHARED_DATA (default ../shared/data) and fails, saying so, when it is missing.
// Ends with one line "N passed, N failed, N skipped", counted as `npm test` counts.
import fs from "node:fs";
import path from "node:path";
import { runCountedVitest } from "./test-summary.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const data = path.resolve(process.env.MODELYARD_SHARED_DATA || path.join(ROOT, "..", "shared", "data"));
if (!fs.existsSync(path.join(data, "README.md"))) {
  console.error(
    `The data suite needs the shared reference data, and it is not at ${data}.\n` +
      "Put the data folder there, or run with MODELYARD_SHARED_DATA=/path/to/shared/data. `npm test` does not need it.",
  );
  console.log("0 passed, 1 failed, 0 skipped");
  process.exit(2);
}
const started = Date.now();
console.log(`Modelyard data suite over ${data}.`);
const s = runCountedVitest(ROOT, "data suite", ["--config", "vitest.data.config.ts"]);
if (s.problems.length) console.log(`\nNot counted as passed:\n${s.problems.map((p) => `  - ${p}`).join("\n")}`);
console.log(`\nData suite done in ${((Date.now() - started) / 60000).toFixed(1)} min.`);
console.log(`${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
process.exit(s.failed || s.exitCode !== 0 ? 1 : 0);

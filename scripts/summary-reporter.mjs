// A Vitest reporter that writes what `npm test`'s summary needs to the file in
// MODELYARD_SUMMARY_FILE: each test module's state and errors (a load failure, a failing
// beforeAll or afterAll), each test's state with its skip note, and errors raised outside tests.
// Vitest's JSON report leaves out hook errors and skip notes, which made the summary undercount.
import fs from "node:fs";

const message = (e) => String(e?.message ?? e).split("\n")[0].slice(0, 300);

function suiteErrors(node) {
  const out = [];
  for (const child of node.children ?? []) {
    if (child.type === "suite") {
      for (const e of child.errors()) out.push(`${child.fullName}: ${message(e)}`);
      out.push(...suiteErrors(child));
    }
  }
  return out;
}

export default class SummaryReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const file = process.env.MODELYARD_SUMMARY_FILE;
    if (!file) return;
    const modules = testModules.map((m) => ({
      file: m.moduleId,
      state: m.state(),
      errors: [...m.errors().map(message), ...suiteErrors(m)],
      tests: [...m.children.allTests()].map((t) => {
        const r = t.result();
        return { name: t.fullName, state: r.state, note: r.note ?? null };
      }),
    }));
    fs.writeFileSync(file, JSON.stringify({ modules, unhandledErrors: unhandledErrors.map(message) }));
  }
}

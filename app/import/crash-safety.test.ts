import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { testDialects } from "#tests/support/test-databases.ts";
import { hubListRows } from "#tests/support/fixtures.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const ROWS = 12_000;
const BATCH = 250;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-crash-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function sampleFile(): string {
  const file = path.join(tmp, "sample.jsonl");
  if (fs.existsSync(file)) return file;
  // Enough rows that the import is still running when it is killed: the real list rows, repeated
  // with suffixed ids (as a catalogue many times the dump would be).
  const rows = hubListRows();
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const r = rows[i % rows.length]!;
    const copy = Math.floor(i / rows.length);
    lines.push(JSON.stringify(copy === 0 ? r : { ...r, id: `${String(r["id"])}-copy${copy}` }));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

function startImport(databaseUrl: string, file: string) {
  return spawn(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "import", file, "--batch", String(BATCH)], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

for (const dialect of testDialects()) {
  describe(`crash safety on ${dialect.name}`, () => {
    it("a kill -9 mid-import leaves whole batches, and a rerun completes", async () => {
      const t = await dialect.create();
      try {
        const file = sampleFile();
        const db = t.handle.db;
        const count = async () => Number((await sql<{ n: number }>`select count(*) as n from models`.execute(db)).rows[0]!.n);

        const child = startImport(t.url, file);
        const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
        // Wait until a few batches have committed, then kill without warning.
        const deadline = Date.now() + 120_000;
        while ((await count()) < BATCH * 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
        child.kill("SIGKILL");
        expect(await exited).toBe("SIGKILL");

        const committed = await count();
        expect(committed).toBeGreaterThanOrEqual(BATCH * 3);
        expect(committed).toBeLessThan(ROWS);
        // Whole batches only: models and their tags were committed together.
        expect(committed % BATCH).toBe(0);
        const orphans = await sql<{ n: number }>`select count(*) as n from models m
          where m.tags <> '[]' and not exists (select 1 from model_tags t where t.rid = m.rid)`.execute(db);
        expect(Number(orphans.rows[0]!.n)).toBe(0);
        const dangling = await sql<{ n: number }>`select count(*) as n from model_tags t
          where not exists (select 1 from models m where m.rid = t.rid)`.execute(db);
        expect(Number(dangling.rows[0]!.n)).toBe(0);
        if (dialect.name === "sqlite") {
          const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
          expect(check.rows[0]!.integrity_check).toBe("ok");
          await sql`insert into models_fts(models_fts) values ('integrity-check')`.execute(db);
        }

        const rerun = startImport(t.url, file);
        let out = "";
        rerun.stdout.on("data", (d: Buffer) => (out += d.toString()));
        rerun.stderr.on("data", (d: Buffer) => (out += d.toString()));
        const code = await new Promise<number | null>((resolve) => rerun.once("exit", resolve));
        expect(code, out).toBe(0);
        expect(out).toMatch(new RegExp(`${(ROWS - committed).toLocaleString("en-US")} inserted, 0 updated, ${committed.toLocaleString("en-US")} unchanged, 0 rejected`));
        expect(await count()).toBe(ROWS);
      } finally {
        await t.drop();
      }
    });
  });
}

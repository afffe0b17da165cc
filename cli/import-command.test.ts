import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { statsDateFor } from "#cli/import-command.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}) {
  const res = spawnSync(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), ...args], {
    cwd: tmp,
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(tmp, "cli.db")}`, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe("modelyard import", () => {
  it("imports, prints a summary with rejected rows and their lines, and exits 0", () => {
    const file = path.join(tmp, "models.jsonl");
    fs.writeFileSync(file, ['{"id":"a/one","downloads":3}', "{oops", '{"id":"a/two","likes":"x"}', '{"id":"a/three"}'].join("\n"));
    const { code, out } = cli(["import", file]);
    expect(code, out).toBe(0);
    expect(out).toMatch(/Imported 4 rows .*: 2 inserted, 0 updated, 0 unchanged, 2 rejected\./);
    expect(out).toMatch(/models\.jsonl:2: malformed JSON/);
    expect(out).toMatch(/models\.jsonl:3 \(a\/two\): likes:/);
    const again = cli(["import", file]);
    expect(again.out).toMatch(/0 inserted, 0 updated, 2 unchanged, 2 rejected/);
  });

  it("refuses an unknown --priority with exit 2, naming the choices", () => {
    const { code, out } = cli(["import", "--priority", "fast", "x.jsonl"]);
    expect(code).toBe(2);
    expect(out).toContain("--priority must be low or normal, got 'fast'");
  });

  it("exits 1 with a clear message for a file that is not JSON", () => {
    const file = path.join(tmp, "notes.csv");
    fs.writeFileSync(file, "id,downloads\na/b,3\n");
    const { code, out } = cli(["import", file]);
    expect(code).toBe(1);
    expect(out).toMatch(/Import failed: .*notes\.csv: is not JSON: it starts with 'i'/);
  });

  it("exits 2 with usage help for bad options", () => {
    expect(cli(["import"]).code).toBe(2);
    expect(cli(["import", "x.jsonl", "--stats-as-of", "yesterday"]).out).toMatch(/--stats-as-of must be a date/);
    expect(cli(["frobnicate"]).code).toBe(2);
    // Flags the parser does not know, or given without their value, were exit 1 like a failure.
    const unknown = cli(["import", "--bogus", "x.jsonl"]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/Unknown option '--bogus'[\s\S]*Run `modelyard help`/);
    expect(cli(["import", "x.jsonl", "--batch"]).code).toBe(2);
    // Before, serve --port abc listened on NaN; it is refused before anything starts.
    for (const port of ["abc", "70000", "1.5", ""]) {
      const serve = cli(["serve", "--port", port]);
      expect(serve.code, serve.out).toBe(2);
      expect(serve.out).toContain(`--port must be a whole number from 0 to 65535 (0: any free port), got '${port}'`);
    }
  });

  it("imports the files it can read when others cannot be read, names each one that failed and why, and exits 1", () => {
    const dir = path.join(tmp, "mixed");
    fs.mkdirSync(dir);
    const rows = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${prefix}/m${i}`, downloads: i })).join("\n") + "\n";
    fs.writeFileSync(path.join(dir, "first.jsonl"), rows("first", 3));
    fs.writeFileSync(path.join(dir, "table.csv"), "id,downloads\na/b,3\n");
    const gz = zlib.gzipSync(rows("cut", 5000));
    fs.writeFileSync(path.join(dir, "cut.jsonl.gz"), gz.subarray(0, Math.floor(gz.length / 2)));
    fs.writeFileSync(path.join(dir, "last.jsonl"), rows("last", 2));
    const files = ["first.jsonl", "table.csv", "cut.jsonl.gz", "missing.jsonl", "last.jsonl"].map((f) => path.join(dir, f));
    const { code, out } = cli(["import", ...files], { DATABASE_URL: `sqlite:${path.join(tmp, "mixed.db")}` });
    expect(code, out).toBe(1);
    expect(out).toMatch(/Imported 5 rows .*: 5 inserted, 0 updated, 0 unchanged, 0 rejected\./);
    expect(out).toContain("Not imported (3 of 5 paths; the summary above counts the others):");
    expect(out).toMatch(/table\.csv: is not JSON/);
    expect(out).toMatch(/cut\.jsonl\.gz: cannot be read after line \d+ \(unexpected end of file\): it is damaged or cut short/);
    expect(out).toMatch(/missing\.jsonl: does not exist/);
    expect(out).not.toMatch(/^\s+at /m);
    // The files after the bad ones landed too: importing them again changes nothing.
    const again = cli(["import", files[0]!, files[4]!], { DATABASE_URL: `sqlite:${path.join(tmp, "mixed.db")}` });
    expect(again.out).toMatch(/0 inserted, 0 updated, 5 unchanged, 0 rejected/);
  });

  it("refuses a date that does not exist, from --stats-as-of or the file name, before touching the database", () => {
    const file = path.join(tmp, "dated.jsonl");
    fs.writeFileSync(file, '{"id":"d/one","downloads":3,"createdAt":"2024-01-01T00:00:00.000Z"}\n');
    const flag = cli(["import", file, "--stats-as-of", "2024-13-45"], { DATABASE_URL: `sqlite:${path.join(tmp, "dates.db")}` });
    expect(flag.code, flag.out).toBe(2);
    expect(flag.out).toContain("--stats-as-of must be a date like 2024-07-11, got '2024-13-45'");
    expect(cli(["import", file, "--stats-as-of", "2023-02-29"]).code).toBe(2);
    const named = path.join(tmp, "dump-2024-02-30.jsonl");
    fs.copyFileSync(file, named);
    const fromName = cli(["import", named], { DATABASE_URL: `sqlite:${path.join(tmp, "dates.db")}` });
    expect(fromName.code, fromName.out).toBe(2);
    expect(fromName.out).toMatch(/dump-2024-02-30\.jsonl: its name holds '2024-02-30', which is not a date.*--stats-as-of YYYY-MM-DD, or --live/);
    expect(fs.existsSync(path.join(tmp, "dates.db"))).toBe(false);
    // A real date on the flag overrides the name's, and --live ignores it.
    expect(cli(["import", named, "--stats-as-of", "2024-02-29"]).code).toBe(0);
    expect(cli(["import", named, "--live"]).code).toBe(0);
  });

  it("rejects a DATABASE_URL it cannot use, naming the accepted forms", () => {
    const { code, out } = cli(["migrate"], { DATABASE_URL: "mysql://x" });
    expect(code).toBe(1);
    expect(out).toMatch(/DATABASE_URL must be unset .*sqlite:<path>, or postgres/);
  });
});

describe("commands on a database they cannot use", () => {
  it("name DATABASE_URL and what to do when the database cannot be reached, not the driver's line alone", () => {
    // Port 1 on loopback: nothing listens, so the connection is refused at once.
    const { code, out } = cli(["import", path.join(tmp, "none.jsonl")], { DATABASE_URL: "postgres://someone:secret@127.0.0.1:1/modelyard" });
    expect(code, out).toBe(1);
    expect(out).toMatch(/The database at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/modelyard \(DATABASE_URL\) could not be opened and migrated: .*ECONNREFUSED.*Check that it is running and reachable/);
    expect(out).not.toContain("secret");
  });

  it("refuse a database a newer version has migrated, for every command, and leave it as it was", () => {
    const file = path.join(tmp, "newer.db");
    const url = `sqlite:${file}`;
    expect(cli(["migrate"], { DATABASE_URL: url }).code).toBe(0);
    const db = new SQLite(file);
    db.prepare("insert into modelyard_migrations (name, applied_at) values ('0099-from-a-newer-version', '2027-01-01')").run();
    const before = db.prepare("select name from modelyard_migrations order by name").all();
    db.close();
    const models = path.join(tmp, "newer.jsonl");
    fs.writeFileSync(models, '{"id":"a/newer"}\n');
    for (const args of [["migrate"], ["import", models], ["users", "list"]]) {
      const { code, out } = cli(args, { DATABASE_URL: url });
      expect(code, `${args.join(" ")}: ${out}`).toBe(1);
      expect(out).toContain("has been migrated by a newer version of Modelyard (migrations this version does not know: 0099-from-a-newer-version)");
      expect(out).toContain("Run the newer version again, or restore a backup taken before it ran.");
    }
    const after = new SQLite(file, { readonly: true });
    expect(after.prepare("select name from modelyard_migrations order by name").all()).toEqual(before);
    expect(after.prepare("select count(*) as n from models where id = 'a/newer'").get()).toEqual({ n: 0 });
    after.close();
  });
});

describe("statsDateFor", () => {
  it("takes the snapshot date from the file name unless told otherwise", () => {
    expect(statsDateFor("/x/hub-models-2024-07-11.jsonl.gz", { live: false })).toBe("2024-07-11");
    expect(statsDateFor("/x/models.jsonl", { live: false })).toBeNull();
    expect(statsDateFor("/x/hub-models-2024-07-11.jsonl.gz", { live: true })).toBeNull();
    expect(statsDateFor("/x/models.jsonl", { live: false, statsAsOf: "2025-01-02" })).toBe("2025-01-02");
  });
});

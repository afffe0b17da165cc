import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
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

describe("statsDateFor", () => {
  it("takes the snapshot date from the file name unless told otherwise", () => {
    expect(statsDateFor("/x/hub-models-2024-07-11.jsonl.gz", { live: false })).toBe("2024-07-11");
    expect(statsDateFor("/x/models.jsonl", { live: false })).toBeNull();
    expect(statsDateFor("/x/hub-models-2024-07-11.jsonl.gz", { live: true })).toBeNull();
    expect(statsDateFor("/x/models.jsonl", { live: false, statsAsOf: "2025-01-02" })).toBe("2025-01-02");
  });
});

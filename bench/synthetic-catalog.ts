/**
 * The SYNTHETIC 3.04M-row catalogue of issue 33, for `npm run bench:catalog -- --scale 3.04M`:
 * the 760k-row Hub dump of 2024-07-11 four times over. Copy 1 is the dump as it is; copies 2–4
 * are the same rows with `-syn2`, `-syn3`, `-syn4` after the name (`org/name-syn2`), every other
 * field untouched, so facet values, counts and dates keep the real proportions at four times the
 * rows. No such catalogue exists on the Hub: the file's name says `synthetic`, and so does every
 * line the benches print about it.
 *
 * The file is written once to the OS temp dir, named by a hash of the dump's bytes and this
 * generator's version, so reruns reuse it; `npm run bench:catalog -- --scale 3.04M` imports it
 * with the normal importer (`modelyard import FILE --stats-as-of 2024-07-11`).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import zlib from "node:zlib";

/** Bumped when the generated rows change, so a cached file of an older version is not reused. */
const VERSION = 1;
/** The Hub's limit for each part of an id (app/catalog/model-id.ts). */
const MAX_PART = 96;

export const SYNTHETIC_SCALES = { "3.04M": 4 } as const;
export type SyntheticScale = keyof typeof SYNTHETIC_SCALES;

/**
 * `org/name` as copy `copy` (2, 3, …) names it: `org/name-synN`. A name too long for the suffix
 * keeps its first characters and a short hash of the rest, so two long names that share their
 * start stay apart.
 */
export function syntheticId(id: string, copy: number): string {
  const slash = id.lastIndexOf("/");
  const org = slash >= 0 ? id.slice(0, slash + 1) : "";
  const name = id.slice(slash + 1);
  const suffix = `-syn${copy}`;
  if (name.length + suffix.length <= MAX_PART) return `${org}${name}${suffix}`;
  const hash = createHash("sha1").update(name).digest("hex").slice(0, 6);
  return `${org}${name.slice(0, MAX_PART - suffix.length - hash.length - 1)}-${hash}${suffix}`;
}

const ID_AT_START = /^\{"id":"((?:[^"\\]|\\.)*)"/;

/** One dump line as copy `copy` writes it (copy 1: unchanged). */
export function syntheticLine(line: string, copy: number): string {
  if (copy === 1) return line;
  const m = ID_AT_START.exec(line);
  if (m && !m[1]!.includes("\\")) return `{"id":${JSON.stringify(syntheticId(m[1]!, copy))}${line.slice(m[0].length)}`;
  const row = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify({ ...row, id: syntheticId(String(row["id"]), copy) });
}

function fileKey(file: string): string {
  const st = fs.statSync(file);
  return `${st.size}-${createHash("sha256").update(fs.readFileSync(file)).digest("hex").slice(0, 16)}`;
}

export interface SyntheticCatalog {
  file: string;
  rows: number;
  /** Set when this call wrote the file. */
  generated?: { seconds: number };
}

/**
 * The synthetic catalogue of `copies` copies of `source`, generated unless a file of the same
 * source bytes and generator version is in the OS temp dir already.
 */
export async function ensureSyntheticCatalog(source: string, scale: SyntheticScale): Promise<SyntheticCatalog> {
  const copies = SYNTHETIC_SCALES[scale];
  const base = path.basename(source).replace(/\.jsonl(\.gz)?$/, "");
  const dir = path.join(os.tmpdir(), "modelyard-bench");
  const file = path.join(dir, `${base}-x${copies}-synthetic-v${VERSION}-${fileKey(source)}.jsonl.gz`);
  const rowsFile = `${file}.rows`;
  if (fs.existsSync(file) && fs.existsSync(rowsFile)) return { file, rows: Number(fs.readFileSync(rowsFile, "utf8")) };
  fs.mkdirSync(dir, { recursive: true });
  console.log(`Generating the SYNTHETIC ${scale}-row catalogue (${path.basename(source)} ×${copies}, copies 2–${copies} with ids suffixed -synN) …`);
  const t0 = performance.now();
  let rows = 0;
  async function* lines(): AsyncGenerator<string> {
    for (let copy = 1; copy <= copies; copy++) {
      const input = readline.createInterface({ input: fs.createReadStream(source).pipe(zlib.createGunzip()), crlfDelay: Infinity });
      let chunk: string[] = [];
      for await (const line of input) {
        if (!line) continue;
        chunk.push(syntheticLine(line, copy));
        rows++;
        if (chunk.length === 2_000) {
          yield chunk.join("\n") + "\n";
          chunk = [];
        }
      }
      if (chunk.length) yield chunk.join("\n") + "\n";
    }
  }
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // Level 4 rather than the default 6: quicker to write, and the importer reads either alike.
    await pipeline(Readable.from(lines()), zlib.createGzip({ level: 4 }), fs.createWriteStream(tmp));
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  fs.writeFileSync(rowsFile, String(rows));
  const seconds = (performance.now() - t0) / 1000;
  console.log(`  SYNTHETIC catalogue: ${rows.toLocaleString("en-US")} rows, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB gzipped, in ${seconds.toFixed(1)} s: ${file}`);
  return { file, rows, generated: { seconds } };
}

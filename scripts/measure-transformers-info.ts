/**
 * How closely the derived `transformersInfo` matches the Hub's own. Over the real
 * /api/models/{id} records in ../shared/data/model-details-2024-07.jsonl.gz that carry one: strip
 * it, derive it, compare (auto_model, processor). Reported twice: with the record's config (the
 * importer's route for full records) and with the config stripped too (the route for list-API
 * rows, which have only tags and pipeline_tag).
 *
 *   npm run bench:transformers-info
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { deriveTransformersInfo } from "#app/catalog/transformers-info.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

type Json = Record<string, unknown>;

export interface RouteScore {
  total: number;
  matched: number;
  /** "expected -> derived" (auto_model / processor), most common first. */
  misses: Array<{ kind: string; count: number; example: string }>;
}

export interface AccuracyReport {
  /** Records that carry a transformersInfo and a config. */
  withConfig: RouteScore;
  /** The same records with the config stripped: tags and pipeline_tag only. */
  tagsOnly: RouteScore;
  /**
   * Tags only, over the records whose config names an architecture. Where it names none the Hub
   * itself says only "AutoModel", which no list row can reveal.
   */
  tagsOnlyWithArchitecture: RouteScore;
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);

function pair(info: Json | null | undefined): string {
  if (!info) return "(none)";
  return `${str(info["auto_model"]) ?? "?"} / ${str(info["processor"]) ?? "-"}`;
}

function score(records: Json[], withConfig: boolean): RouteScore {
  const misses = new Map<string, { count: number; example: string }>();
  let matched = 0;
  for (const r of records) {
    const expected = obj(r["transformersInfo"]);
    const derived = deriveTransformersInfo({
      config: withConfig ? obj(r["config"]) : null,
      tags: Array.isArray(r["tags"]) ? r["tags"].filter((t): t is string => typeof t === "string") : [],
      pipelineTag: str(r["pipeline_tag"]),
      libraryName: str(r["library_name"]),
    });
    const want = pair(expected);
    const got = pair(derived ? { ...derived.info } : null);
    if (want === got) {
      matched++;
      continue;
    }
    const kind = `${want} -> ${got}`;
    const m = misses.get(kind);
    if (m) m.count++;
    else misses.set(kind, { count: 1, example: String(r["id"]) });
  }
  return {
    total: records.length,
    matched,
    misses: [...misses].map(([kind, m]) => ({ kind, ...m })).sort((a, b) => b.count - a.count),
  };
}

/** Scores both routes over records shaped like the Hub's /api/models/{id}. */
export function measureTransformersInfo(records: Json[]): AccuracyReport {
  const scored = records.filter((r) => obj(r["transformersInfo"]) && obj(r["config"]));
  const withArch = scored.filter((r) => {
    const archs = obj(r["config"])?.["architectures"];
    return Array.isArray(archs) && typeof archs[0] === "string";
  });
  return { withConfig: score(scored, true), tagsOnly: score(scored, false), tagsOnlyWithArchitecture: score(withArch, false) };
}

export async function readModelDetails(file = path.join(sharedDataDir(), "model-details-2024-07.jsonl.gz")): Promise<Json[]> {
  const out: Json[] = [];
  const input = fs.createReadStream(file).pipe(zlib.createGunzip());
  for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim()) out.push(JSON.parse(line) as Json);
  }
  return out;
}

export const percent = (s: RouteScore): string => `${((100 * s.matched) / Math.max(1, s.total)).toFixed(1)}%`;

function print(label: string, s: RouteScore, top: number): void {
  console.log(`${label}: ${s.matched}/${s.total} exact (auto_model, processor) = ${percent(s)}`);
  for (const m of s.misses.slice(0, top)) console.log(`  ${String(m.count).padStart(4)}  ${m.kind}   e.g. ${m.example}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const top = Number(process.argv[2] ?? 12);
  const report = measureTransformersInfo(await readModelDetails());
  print("with config", report.withConfig, top);
  print("tags only (config stripped)", report.tagsOnly, top);
  print("tags only, where the config names an architecture", report.tagsOnlyWithArchitecture, top);
}

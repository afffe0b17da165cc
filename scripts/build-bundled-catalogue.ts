/**
 * Builds catalogue/hub-catalogue-2024-07-11.jsonl.gz, the catalogue a fresh `npm start` loads.
 *
 * Sources (all in ../shared/data, see its README):
 * - catalog-top5000-2024-07-11.jsonl: the 5,000 most-downloaded Hub models (list shape);
 * - model-details-2024-07.jsonl.gz: full /api/models/{id} records, merged where the id matches;
 * - provider-mappings.jsonl: every model with an inference-provider mapping, keeping only the
 *   providers @huggingface/inference 3.13.1 can call; their listing facts come from
 *   hub-models-2024-07-11.jsonl.gz when the model is in that snapshot.
 * Facts only: no model-card prose is bundled.
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { INFERENCE_PROVIDERS } from "@huggingface/inference";

const ROOT = path.resolve(import.meta.dirname, "..");
const SHARED = path.resolve(process.env["MODELYARD_SHARED_DATA"] || path.join(ROOT, "..", "shared", "data"));
const OUT = path.join(ROOT, "catalogue", "hub-catalogue-2024-07-11.jsonl.gz");

type Json = Record<string, unknown>;

async function* lines(file: string): AsyncGenerator<Json> {
  const raw = fs.createReadStream(file);
  const input = file.endsWith(".gz") ? raw.pipe(zlib.createGunzip()) : raw;
  for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim()) yield JSON.parse(line) as Json;
  }
}

const DETAIL_KEYS = [
  "id", "author", "sha", "lastModified", "createdAt", "gated", "pipeline_tag", "library_name", "tags", "downloads", "likes",
  "siblings", "cardData", "config", "transformersInfo", "widgetData", "safetensors", "model-index", "spaces",
];

const supported = new Set<string>(INFERENCE_PROVIDERS);

async function main() {
  const records = new Map<string, Json>();
  for await (const row of lines(path.join(SHARED, "catalog-top5000-2024-07-11.jsonl"))) records.set(String(row["id"]), row);

  const mappings = new Map<string, Json>();
  let dropped = 0;
  for await (const row of lines(path.join(SHARED, "provider-mappings.jsonl"))) {
    const m = (row["inferenceProviderMapping"] ?? {}) as Record<string, Json>;
    const kept: Record<string, Json> = {};
    for (const [provider, e] of Object.entries(m)) {
      if (!supported.has(provider)) {
        dropped++;
        continue;
      }
      if (typeof e["providerId"] !== "string" || !e["providerId"]) continue;
      // A few older sources recorded no task; the model's own pipeline tag is the Hub's default.
      const task = e["task"] ?? row["pipeline_tag"];
      if (typeof task !== "string") continue;
      kept[provider] = {
        providerId: e["providerId"],
        task,
        status: e["status"] ?? null,
        ...(e["adapter"] ? { adapter: e["adapter"] } : {}),
        ...(e["adapterWeightsPath"] ? { adapterWeightsPath: e["adapterWeightsPath"] } : {}),
      };
    }
    mappings.set(String(row["id"]), { pipeline_tag: row["pipeline_tag"] ?? null, inferenceProviderMapping: kept });
  }

  const missing = new Set([...mappings.keys()].filter((id) => !records.has(id)));
  for await (const row of lines(path.join(SHARED, "hub-models-2024-07-11.jsonl.gz"))) {
    const id = String(row["id"]);
    if (missing.has(id)) {
      records.set(id, row);
      missing.delete(id);
    }
  }
  for (const id of missing) records.set(id, { id, tags: [] });

  let detailed = 0;
  for await (const row of lines(path.join(SHARED, "model-details-2024-07.jsonl.gz"))) {
    const id = String(row["id"]);
    const base = records.get(id);
    if (!base) continue;
    detailed++;
    const picked: Json = {};
    for (const k of DETAIL_KEYS) if (row[k] !== undefined) picked[k] = row[k];
    records.set(id, { ...base, ...picked });
  }

  for (const [id, m] of mappings) {
    const r = records.get(id)!;
    if (r["pipeline_tag"] == null && m["pipeline_tag"]) r["pipeline_tag"] = m["pipeline_tag"];
    r["inferenceProviderMapping"] = m["inferenceProviderMapping"];
  }

  const ids = [...records.keys()].sort();
  const body = ids.map((id) => JSON.stringify(records.get(id))).join("\n") + "\n";
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, zlib.gzipSync(body, { level: 9 }));
  console.log(
    `Wrote ${OUT}: ${ids.length} models (${detailed} with full records, ${mappings.size} with provider mappings; ${dropped} mappings to providers 3.13.1 cannot call were dropped); ${(fs.statSync(OUT).size / 1024).toFixed(0)} KiB.`,
  );
}

await main();

/**
 * The small fixtures in tests/support/fixtures/, derived from the shared data by
 * scripts/build-test-fixtures.ts. Each file starts with its header (source, licence, how it was
 * made); these loaders check the shape and hand tests plain data, or write it out as the files
 * the importer reads.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

export const FIXTURES_DIR = path.resolve(import.meta.dirname, "fixtures");

const header = z.object({ source: z.string().min(1), licence: z.string().min(1), generatedBy: z.string().min(1) });
export type FixtureHeader = z.infer<typeof header>;

const row = z.record(z.string(), z.unknown());
export type FixtureRow = z.infer<typeof row>;

function load<T extends z.ZodType>(file: string, key: string, schema: T): z.infer<T> {
  const parsed = header.extend({ [key]: schema }).parse(JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, file), "utf8")));
  return (parsed as Record<string, unknown>)[key] as z.infer<T>;
}

/** Raw Hub list-API rows (id, pipeline_tag, library_name, tags, downloads, likes, createdAt). */
export function hubListRows(): FixtureRow[] {
  return load("hub-list-rows.json", "rows", z.array(row).min(1));
}

/** Verbatim Hub GET /api/models/{id} records. */
export function modelDetailRecords(): FixtureRow[] {
  return load("model-details.json", "records", z.array(row).min(1));
}

/** Raw model cards keyed by `<org>__<name>.md`, the file names `modelyard import` reads in a card folder. */
export function modelCards(): Record<string, string> {
  return load("model-cards.json", "cards", z.record(z.string().regex(/__.+\.md$/), z.string()));
}

/** Card bodies without front matter. */
export function cardBodies(): Array<{ modelId: string; card_body: string }> {
  return load("card-bodies.json", "bodies", z.array(z.object({ modelId: z.string(), card_body: z.string() })).min(1));
}

const byModel = z.object({ chat_template: z.string(), bos_token: z.string().nullable(), eos_token: z.string().nullable() });
export type ByModelTemplate = z.infer<typeof byModel>;

/** Real chat templates: two by-model files, Ollama's families, and one Hub tokenizer config per distinct template. */
export function chatTemplates(): {
  byModel: Record<string, ByModelTemplate>;
  ollama: Record<string, string>;
  tokenizerConfigs: Array<{ chat_template: string; bos_token: string | null; eos_token: string | null }>;
} {
  return load(
    "chat-templates.json",
    "templates",
    z.object({
      byModel: z.record(z.string(), byModel),
      ollama: z.record(z.string(), z.string()),
      tokenizerConfigs: z.array(z.object({ chat_template: z.string(), bos_token: z.string().nullable(), eos_token: z.string().nullable() })).min(1),
    }),
  );
}

/** A fresh temporary folder with the fixtures written as import files: `details.jsonl` and a `cards/` folder. */
export function writeImportFixtures(): { details: string; cards: string; dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-fixtures-"));
  const details = path.join(dir, "details.jsonl");
  fs.writeFileSync(details, modelDetailRecords().map((r) => JSON.stringify(r)).join("\n") + "\n");
  const cards = path.join(dir, "cards");
  fs.mkdirSync(cards);
  for (const [file, text] of Object.entries(modelCards())) fs.writeFileSync(path.join(cards, file), text);
  return { details, cards, dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Writes records as a JSONL import file in a fresh temporary folder. */
export function writeRecords(records: readonly FixtureRow[]): { file: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-records-"));
  const file = path.join(dir, "records.jsonl");
  fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return { file, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

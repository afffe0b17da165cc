/**
 * `npm run fixtures:build`: derives the small test fixtures in tests/support/fixtures/ from
 * ../shared/data (or MODELYARD_SHARED_DATA), so `npm test` needs nothing beside the project.
 * Each fixture is one JSON file whose first keys are its header: source, licence and how it was
 * made. The selection is deterministic, so rebuilding from the same data gives the same files.
 */
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import zlib from "node:zlib";
import { FIXTURES_DIR, type FixtureHeader } from "#tests/support/fixtures.ts";
import { sharedDataDir } from "#tests/support/shared-data.ts";

type Row = Record<string, unknown>;

const DATA = sharedDataDir();
const GENERATED_BY = "npm run fixtures:build (scripts/build-test-fixtures.ts)";
const LIST_ROWS = 400;
const DETAIL_RECORDS = 30;
const CARD_BODIES = 40;
/** Cards the tests name (bloom's table of contents, bge-m3's relative images, the importer's three) and a few of other shapes. */
const CARDS = [
  "bigscience__bloom.md",
  "BAAI__bge-m3.md",
  "openai__whisper-large-v3.md",
  "google__gemma-7b.md",
  "CompVis__stable-diffusion-v1-4.md",
  "FacebookAI__roberta-large-mnli.md",
  "SamLowe__roberta-base-go_emotions.md",
  "microsoft__Phi-3-mini-128k-instruct.md",
];
/** Records the model-page journeys open. */
const REQUIRED_DETAILS = ["Qwen/Qwen2-72B-Instruct", "Qwen/Qwen2-0.5B-Instruct-GGUF"];

async function* jsonl(file: string): AsyncGenerator<Row> {
  const input = fs.createReadStream(file).pipe(file.endsWith(".gz") ? zlib.createGunzip() : new (await import("node:stream")).PassThrough());
  for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
    if (line.trim()) yield JSON.parse(line) as Row;
  }
}

/** One record per line, so a rebuild shows as a readable diff. */
function writeFixture(name: string, header: Omit<FixtureHeader, "generatedBy">, key: string, items: unknown[] | Record<string, unknown>): void {
  const head = JSON.stringify({ ...header, generatedBy: GENERATED_BY }).slice(0, -1);
  const body = Array.isArray(items)
    ? `[\n${items.map((i) => JSON.stringify(i)).join(",\n")}\n]`
    : `{\n${Object.entries(items).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n")}\n}`;
  const file = path.join(FIXTURES_DIR, name);
  fs.writeFileSync(file, `${head},\n${JSON.stringify(key)}: ${body}\n}\n`);
  console.log(`${path.relative(process.cwd(), file)}: ${Array.isArray(items) ? items.length : Object.keys(items).length} entries, ${(fs.statSync(file).size / 1024).toFixed(0)} KB`);
}

async function listRows(): Promise<void> {
  const rows: Row[] = [];
  for await (const row of jsonl(path.join(DATA, "hub-models-2024-07-11.jsonl.gz"))) {
    rows.push(row);
    if (rows.length >= LIST_ROWS) break;
  }
  writeFixture(
    "hub-list-rows.json",
    {
      source: `the first ${LIST_ROWS} rows of ../shared/data/hub-models-2024-07-11.jsonl.gz: raw Hugging Face Hub GET /api/models list rows of 2024-07-11, collected by TStalnaker44/hugging_face_analysis_replication @016ca26 (data/raw_data/model_lists/models_page{1..760}_07-11-2024.json)`,
      licence: "GPL-3.0 repository; Hub API output (facts about public models)",
    },
    "rows",
    rows,
  );
}

async function modelDetails(): Promise<void> {
  const picked = new Map<string, Row>();
  const shapes = new Set<string>();
  let withChatTemplate = 0;
  for await (const row of jsonl(path.join(DATA, "model-details-2024-07.jsonl.gz"))) {
    const id = String(row["id"]);
    const siblings = Array.isArray(row["siblings"]) ? row["siblings"].length : 0;
    if (REQUIRED_DETAILS.includes(id)) {
      picked.set(id, row);
      continue;
    }
    if (picked.size >= DETAIL_RECORDS || siblings > 40) continue;
    // One record per (library, task, has-config, has-chat-template) shape, small ones first in file order.
    const config = row["config"] as { tokenizer_config?: { chat_template?: unknown } } | undefined;
    const chat = !!config?.tokenizer_config?.chat_template && !!row["safetensors"];
    const shape = JSON.stringify([row["library_name"] ?? null, row["pipeline_tag"] ?? null, !!config, chat]);
    if (shapes.has(shape) && !(chat && withChatTemplate < 3)) continue;
    shapes.add(shape);
    if (chat) withChatTemplate++;
    picked.set(id, row);
  }
  for (const id of REQUIRED_DETAILS) if (!picked.has(id)) throw new Error(`${id} is not in model-details-2024-07.jsonl.gz`);
  writeFixture(
    "model-details.json",
    {
      source:
        "records of ../shared/data/model-details-2024-07.jsonl.gz: verbatim Hub GET /api/models/{id} objects, collected by TStalnaker44/hugging_face_analysis_replication @016ca26 (data/raw_data/model_data/{0-9,q}.zip); one per library/task/config shape plus the Qwen models the journeys open",
      licence: "GPL-3.0 repository; Hub API output (facts about public models)",
    },
    "records",
    [...picked.values()],
  );
}

async function modelCards(): Promise<void> {
  const cards: Record<string, string> = {};
  for (const file of CARDS) cards[file] = fs.readFileSync(path.join(DATA, "model-cards", file), "utf8");
  writeFixture(
    "model-cards.json",
    {
      source: `${CARDS.length} raw model card README.md files from ../shared/data/model-cards, collected by asgaardlab/model-card-reorganization @d31e549 (verified_model_cards/<org>@<name>/1_raw.md); keyed by <org>__<name>.md`,
      licence: "each card belongs to its model's authors; used here as a test fixture only, never bundled with the product",
    },
    "cards",
    cards,
  );
  const bodies: Row[] = [];
  for await (const row of jsonl(path.join(DATA, "model-cards", "card-bodies-758.jsonl.gz"))) {
    bodies.push({ modelId: row["modelId"], card_body: row["card_body"] });
    if (bodies.length >= CARD_BODIES) break;
  }
  writeFixture(
    "card-bodies.json",
    {
      source: `the first ${CARD_BODIES} of ../shared/data/model-cards/card-bodies-758.jsonl.gz (card bodies without front matter), collected by hn5318/model_card_analysis @6540bff (Dataset/Sample_modelcard/samples_data.json)`,
      licence: "none stated by the collector; each card belongs to its model's authors; test fixture only",
    },
    "bodies",
    bodies,
  );
}

async function chatTemplates(): Promise<void> {
  const dir = path.join(DATA, "chat-templates");
  const byModel: Record<string, unknown> = {};
  for (const file of ["Qwen__Qwen2-7B-Instruct.json", "NousResearch__Hermes-2-Pro-Llama-3-8B.json"]) {
    const row = JSON.parse(fs.readFileSync(path.join(dir, "by-model", file), "utf8")) as Row;
    byModel[file] = { model: row["model"], chat_template: row["chat_template"], bos_token: row["bos_token"], eos_token: row["eos_token"], source: row["source"] };
  }
  const ollama: Record<string, string> = {};
  for await (const row of jsonl(path.join(dir, "ollama-hf-templates.jsonl"))) {
    if (row["ollama_family"] === "gemma-instruct") ollama["gemma-instruct"] = String(row["chat_template"]);
  }
  // One tokenizer config per distinct (template, bos, eos): every template shape the Hub data has, failures included.
  const seen = new Set<string>();
  const configs: Row[] = [];
  for await (const row of jsonl(path.join(dir, "hub-tokenizer-configs-2024-07.jsonl"))) {
    const key = JSON.stringify([row["chat_template"], row["bos_token"], row["eos_token"]]);
    if (seen.has(key)) continue;
    seen.add(key);
    configs.push(row);
  }
  writeFixture(
    "chat-templates.json",
    {
      source:
        "../shared/data/chat-templates: by-model/{Qwen__Qwen2-7B-Instruct,NousResearch__Hermes-2-Pro-Llama-3-8B}.json (huggingface/huggingface.js @fe42e68 packages/jinja/test/e2e.test.js and Hub model details), ollama-hf-templates.jsonl gemma-instruct (ollama/ollama @fb30760 template/index.json), and one row of hub-tokenizer-configs-2024-07.jsonl per distinct (chat_template, bos_token, eos_token) (Hub tokenizer_config values from model-details-2024-07)",
      licence: "MIT (huggingface.js, ollama); Hub data",
    },
    "templates",
    { byModel, ollama, tokenizerConfigs: configs },
  );
}

fs.mkdirSync(FIXTURES_DIR, { recursive: true });
await listRows();
await modelDetails();
await modelCards();
await chatTemplates();

/**
 * Catalogue records for the chat-template tests, in the Hub `/api/models/{id}` shape the importer
 * reads. The templates are real ones from the chat-template fixture (tests/support/fixtures/
 * chat-templates.json, which names its sources): Qwen2-7B-Instruct (ChatML), NousResearch/Hermes-2-Pro-Llama-3-8B (tool use,
 * JSON schema) and Ollama's gemma-instruct (rejects a system turn with raise_exception). The
 * "broken" record is the Qwen2 template with its closing `{% endfor %}` cut off, the kind of
 * truncation a bad copy produces.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ByModelTemplate, chatTemplates } from "#tests/support/fixtures.ts";
import { importWithCli } from "#tests/e2e/support/import-cli.ts";

type ByModel = ByModelTemplate;

export const FIXTURE_IDS = {
  chatml: "ct-test/chatml-instruct",
  named: "ct-test/named-templates",
  gemma: "ct-test/gemma-like",
  broken: "ct-test/broken-template",
  finetune: "ct-test/chatml-finetune",
  gguf: "ct-test/gguf-variant",
} as const;

export interface ChatTemplateFixtures {
  qwen: ByModel;
  hermes: ByModel;
  gemma: string;
  broken: string;
  /** The GGUF variant's template: Qwen's with the default system prompt reworded. */
  ggufVariant: string;
  records: Array<Record<string, unknown>>;
}

export function chatTemplateFixtures(): ChatTemplateFixtures {
  const real = chatTemplates();
  const pick = <T>(table: Record<string, T>, key: string): T => {
    const value = table[key];
    if (value === undefined) throw new Error(`${key} is missing from tests/support/fixtures/chat-templates.json`);
    return value;
  };
  const qwen = pick(real.byModel, "Qwen__Qwen2-7B-Instruct.json");
  const hermes = pick(real.byModel, "NousResearch__Hermes-2-Pro-Llama-3-8B.json");
  const gemma = pick(real.ollama, "gemma-instruct");
  const endfor = qwen.chat_template.lastIndexOf("{% endfor %}");
  const broken = qwen.chat_template.slice(0, endfor) + "\n{{ messages | length }}";
  const ggufVariant = qwen.chat_template.replace("You are a helpful assistant.", "You are a helpful, concise assistant.");
  const record = (id: string, tokenizer: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    id,
    author: id.split("/")[0],
    pipeline_tag: "text-generation",
    library_name: "transformers",
    tags: ["transformers", "text-generation", ...((extra["tags"] as string[] | undefined) ?? [])],
    downloads: 1000 - Object.values(FIXTURE_IDS).indexOf(id as never) * 10,
    likes: 1,
    config: { model_type: "qwen2", tokenizer_config: tokenizer },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "tags")),
  });
  const records = [
    record(FIXTURE_IDS.chatml, { chat_template: qwen.chat_template, eos_token: qwen.eos_token }),
    record(FIXTURE_IDS.named, {
      chat_template: [
        { name: "default", template: qwen.chat_template },
        { name: "tool_use", template: hermes.chat_template },
      ],
      bos_token: hermes.bos_token,
      eos_token: hermes.eos_token,
    }),
    record(FIXTURE_IDS.gemma, { chat_template: gemma, bos_token: "<bos>", eos_token: "<eos>" }),
    record(FIXTURE_IDS.broken, { chat_template: broken, eos_token: "<|im_end|>" }),
    record(
      FIXTURE_IDS.finetune,
      { chat_template: ggufVariant, eos_token: qwen.eos_token },
      { tags: [`base_model:finetune:${FIXTURE_IDS.chatml}`], cardData: { base_model: FIXTURE_IDS.chatml } },
    ),
    record(FIXTURE_IDS.gguf, { chat_template: qwen.chat_template, eos_token: qwen.eos_token }, { gguf: { total: 1000, architecture: "qwen2", chat_template: ggufVariant } }),
  ];
  return { qwen, hermes, gemma, broken, ggufVariant, records };
}

/** Writes the records as a JSONL file in a fresh temporary folder and returns its path. */
export function writeChatTemplateFixtures(): { file: string; fixtures: ChatTemplateFixtures; cleanup: () => void } {
  const fixtures = chatTemplateFixtures();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-ct-"));
  const file = path.join(dir, "chat-template-fixtures.jsonl");
  fs.writeFileSync(file, fixtures.records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return { file, fixtures, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}


/** Imports the fixture records into a running test server's database with the real CLI. */
export async function importFixtures(target: { databaseUrl: string }): Promise<{ fixtures: ChatTemplateFixtures; cleanup: () => void }> {
  const written = writeChatTemplateFixtures();
  try {
    await importWithCli(target.databaseUrl, [written.file, "--live"]);
  } catch (e) {
    written.cleanup();
    throw e;
  }
  return { fixtures: written.fixtures, cleanup: written.cleanup };
}

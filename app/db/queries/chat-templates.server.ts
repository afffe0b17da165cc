import type { Kysely } from "kysely";
import type { BaseModelLink, ChatTemplateIssue, ChatTemplateSource, ChatTemplateStatus } from "#app/catalog/model-record.ts";
import type { Database } from "#app/db/schema.ts";

export interface ChatTemplateModelOption {
  id: string;
  status: ChatTemplateStatus | null;
}

/** What the chat-template lab needs of one model: far less than a model page. */
export interface ModelChatTemplate {
  id: string;
  chatTemplate: ChatTemplateSource | null;
  bosToken: string | null;
  eosToken: string | null;
  status: ChatTemplateStatus | null;
  issue: ChatTemplateIssue | null;
  baseModels: BaseModelLink[];
  /** `tokenizer.chat_template` from the GGUF metadata, when the Hub recorded one. */
  ggufTemplate: string | null;
}

const parse = <T>(s: string | null | undefined, fallback: T): T => {
  if (s == null) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

const toStatus = (s: string | null): ChatTemplateStatus | null => (s === "ok" || s === "error" ? s : null);

/**
 * Models that carry a chat template, most downloaded first, optionally filtered by a substring of
 * the id. For the lab's model picker.
 */
export async function listChatTemplateModels(
  db: Kysely<Database>,
  options: { query?: string; limit?: number } = {},
): Promise<ChatTemplateModelOption[]> {
  const limit = Math.max(1, Math.min(1000, options.limit ?? 200));
  let q = db
    .selectFrom("models")
    .innerJoin("model_details", "model_details.rid", "models.rid")
    .select(["models.id", "models.chat_template_status"])
    .where("model_details.chat_template", "is not", null);
  const needle = options.query?.trim();
  if (needle) q = q.where("models.id", "like", `%${needle.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  const rows = await q.orderBy("models.downloads", "desc").orderBy("models.id").limit(limit).execute();
  return rows.map((r) => ({ id: r.id, status: toStatus(r.chat_template_status) }));
}

/** A model's chat template, tokens, validation result, base models and GGUF template; null when unknown. */
export async function getModelChatTemplate(db: Kysely<Database>, id: string): Promise<ModelChatTemplate | null> {
  const row = await db
    .selectFrom("models")
    .leftJoin("model_details", "model_details.rid", "models.rid")
    .select([
      "models.id",
      "models.chat_template_status",
      "model_details.chat_template",
      "model_details.bos_token",
      "model_details.eos_token",
      "model_details.chat_template_issue",
      "model_details.base_models",
      "model_details.gguf",
    ])
    .where("models.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const gguf = parse<Record<string, unknown> | null>(row.gguf, null);
  const ggufTemplate = gguf && typeof gguf["chat_template"] === "string" ? gguf["chat_template"] : null;
  return {
    id: row.id,
    chatTemplate: parse<ChatTemplateSource | null>(row.chat_template, null),
    bosToken: row.bos_token ?? null,
    eosToken: row.eos_token ?? null,
    status: toStatus(row.chat_template_status),
    issue: parse<ChatTemplateIssue | null>(row.chat_template_issue, null),
    baseModels: parse<BaseModelLink[]>(row.base_models, []),
    ggufTemplate,
  };
}

/** Which of `ids` exist in the catalogue with a chat template (for "compare with base model"). */
export async function modelsWithChatTemplate(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom("models")
    .innerJoin("model_details", "model_details.rid", "models.rid")
    .select("models.id")
    .where("models.id", "in", ids.slice(0, 50))
    .where("model_details.chat_template", "is not", null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

import { createHash } from "node:crypto";
import type { ChatTemplateIssue, ChatTemplateSource, ChatTemplateStatus } from "#app/catalog/model-record.ts";
import { getChatTemplateSandbox, type ChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { Lru } from "#app/utils/lru.ts";

export interface ChatTemplateValidation {
  status: ChatTemplateStatus;
  issue: ChatTemplateIssue | null;
}

export interface ChatTemplateValidationItem {
  chatTemplate: ChatTemplateSource | null;
  bosToken: string | null;
  eosToken: string | null;
}

export interface ValidateOptions {
  sandbox?: ChatTemplateSandbox;
}

/** The conversation every imported template is rendered with once. */
export const STANDARD_VALIDATION_MESSAGES = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "Hello! Who are you?" },
  { role: "assistant", content: "I am an assistant. How can I help?" },
  { role: "user", content: "Tell me a short joke." },
] as const;

/** A minimal function tool, for templates (such as `tool_use`) that require a tools list. */
export const STANDARD_VALIDATION_TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Get the current weather in a city.",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  },
] as const;

type SingleResult = { ok: true } | { ok: false; issue: Omit<ChatTemplateIssue, "templateName"> };

const cache = new Lru<Promise<SingleResult>>({ maxEntries: 10_000 });

function cacheKey(template: string, bosToken: string | null, eosToken: string | null): string {
  return createHash("sha256").update(JSON.stringify([template, bosToken, eosToken])).digest("hex");
}

async function validateOne(
  sandbox: ChatTemplateSandbox,
  template: string,
  bosToken: string | null,
  eosToken: string | null,
): Promise<SingleResult> {
  const base = { template, bosToken, eosToken, addGenerationPrompt: true };
  const withSystem = await sandbox.render({ ...base, messages: [...STANDARD_VALIDATION_MESSAGES] });
  if (withSystem.ok) return { ok: true };
  // Tool-use templates (Hermes `tool_use`, …) iterate over `tools` and fail without them; that is
  // a template used without tools, not a broken one.
  let failure = withSystem.error;
  if (/\btools\b/.test(template)) {
    const withTools = await sandbox.render({ ...base, messages: [...STANDARD_VALIDATION_MESSAGES], tools: [...STANDARD_VALIDATION_TOOLS] });
    if (withTools.ok) return { ok: true };
    failure = withTools.error;
  }
  // Many templates (Gemma, Mistral v0.1, …) reject a system turn on purpose with raise_exception.
  // That is the template working as designed, so such a template passes if it renders without one.
  if (failure.kind === "raised") {
    const withoutSystem = await sandbox.render({ ...base, messages: STANDARD_VALIDATION_MESSAGES.slice(1) });
    if (withoutSystem.ok) return { ok: true };
  }
  const { message, line, column } = failure;
  return { ok: false, issue: { message, line, column } };
}

function validateCached(
  sandbox: ChatTemplateSandbox,
  template: string,
  bosToken: string | null,
  eosToken: string | null,
): Promise<SingleResult> {
  const key = cacheKey(template, bosToken, eosToken);
  const hit = cache.get(key);
  if (hit) return hit;
  const pending = validateOne(sandbox, template, bosToken, eosToken);
  cache.set(key, pending);
  return pending;
}

/**
 * Parses and renders a model's chat template once with a standard conversation (system, user,
 * assistant, user, plus the generation prompt), inside the sandbox. For the named-templates form
 * every template is checked; the issue names the first one that fails, `default` first.
 */
export async function validateChatTemplate(
  source: ChatTemplateSource,
  bosToken: string | null,
  eosToken: string | null,
  options: ValidateOptions = {},
): Promise<ChatTemplateValidation> {
  const sandbox = options.sandbox ?? getChatTemplateSandbox();
  const entries =
    typeof source === "string"
      ? [{ name: null, template: source }]
      : [...source].sort((a, b) => Number(b.name === "default") - Number(a.name === "default"));
  if (entries.length === 0) {
    return { status: "error", issue: { message: "The chat template list is empty", line: null, column: null, templateName: null } };
  }
  const results = await Promise.all(entries.map((entry) => validateCached(sandbox, entry.template, bosToken, eosToken)));
  for (const [index, result] of results.entries()) {
    if (!result.ok) return { status: "error", issue: { ...result.issue, templateName: entries[index]?.name ?? null } };
  }
  return { status: "ok", issue: null };
}

/**
 * Validates many models for the importer. Identical templates (with the same bos/eos) are
 * rendered once, and at most a few renders are in flight so the sandbox queue never overflows.
 * Returns one entry per item, null where the item has no chat template.
 */
export async function validateChatTemplates(
  items: readonly ChatTemplateValidationItem[],
  options: ValidateOptions & { concurrency?: number } = {},
): Promise<Array<ChatTemplateValidation | null>> {
  const sandbox = options.sandbox ?? getChatTemplateSandbox();
  const concurrency = Math.max(1, options.concurrency ?? sandbox.options.poolSize * 2);
  const out: Array<ChatTemplateValidation | null> = new Array<ChatTemplateValidation | null>(items.length).fill(null);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      if (!item?.chatTemplate) continue;
      out[index] = await validateChatTemplate(item.chatTemplate, item.bosToken, item.eosToken, { sandbox });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, runner));
  return out;
}

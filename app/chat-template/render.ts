import { renderTemplate } from "#app/chat-template/engine/render.ts";
import type { ChatTemplateSource } from "#app/catalog/model-record.ts";
import type { RenderChatTemplateInput, RenderChatTemplateResult } from "#app/chat-template/render-types.ts";

/**
 * Renders a chat template the way transformers' apply_chat_template does (trim_blocks,
 * lstrip_blocks, loop controls, tojson, raise_exception, strftime_now, the sandbox's range cap).
 * Pure and synchronous: safe in the browser, but it runs untrusted templates on the calling
 * thread, so servers go through sandbox.server.ts.
 */
export function renderChatTemplate(input: RenderChatTemplateInput): RenderChatTemplateResult {
  return renderTemplate(input);
}

export type SelectTemplateResult =
  | { ok: true; name: string | null; template: string }
  | { ok: false; message: string; available: string[] };

/** Names of a list-form chat template, in their stored order; empty for a single template. */
export function listTemplateNames(source: ChatTemplateSource): string[] {
  return typeof source === "string" ? [] : source.map((entry) => entry.name);
}

/**
 * Picks the template to render, following transformers' rules for the named-templates form:
 * the requested name; else `tool_use` when tools are given and it exists; else `default`.
 */
export function selectTemplate(
  source: ChatTemplateSource,
  name?: string | null,
  options: { hasTools?: boolean } = {},
): SelectTemplateResult {
  if (typeof source === "string") {
    if (name && name !== "default") {
      return { ok: false, message: `This model has a single chat template; there is no template named "${name}"`, available: [] };
    }
    return { ok: true, name: null, template: source };
  }
  const available = listTemplateNames(source);
  const find = (wanted: string) => source.find((entry) => entry.name === wanted);
  if (name) {
    const entry = find(name);
    if (!entry) {
      return {
        ok: false,
        message: `No chat template named "${name}". Available: ${available.join(", ") || "none"}`,
        available,
      };
    }
    return { ok: true, name: entry.name, template: entry.template };
  }
  const toolUse = options.hasTools ? find("tool_use") : undefined;
  const chosen = toolUse ?? find("default");
  if (!chosen) {
    return {
      ok: false,
      message: `This model has several chat templates and none is named "default"; choose one of: ${available.join(", ")}`,
      available,
    };
  }
  return { ok: true, name: chosen.name, template: chosen.template };
}

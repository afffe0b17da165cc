import type { CatalogModel, ChatTemplateIssue } from "#app/catalog/model-record.ts";
import type { PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import { pickTemplateIndex, withoutSystemMessages, type SharedState } from "#app/chat-template/preview-state.ts";
import { renderPreviewOnServer, templateSourceView, type TemplateSourceView } from "#app/chat-template/preview.server.ts";
import { stateFromUrl } from "#app/chat-template/url-state.server.ts";

export type ChatTemplateModel = Pick<CatalogModel, "id" | "chatTemplate" | "bosToken" | "eosToken" | "chatTemplateStatus" | "chatTemplateIssue">;

/** Everything the "Chat template" tab shows on first paint, rendered on the server. */
export interface ChatTemplateTabData {
  modelId: string;
  /** One entry for a single template; one per name for the named-templates form. */
  templates: TemplateSourceView[];
  /** Index into `templates` of the one previewed. */
  selected: number;
  modelBosToken: string | null;
  modelEosToken: string | null;
  state: SharedState;
  outcome: PreviewOutcome;
  /** Why the shown state differs from the link, if it does. */
  notice: string | null;
  /** Set when import validation found the template broken. */
  issue: ChatTemplateIssue | null;
}

/** The warning a model page shows for a template that failed validation at import; null otherwise. */
export function chatTemplateWarning(model: Pick<CatalogModel, "chatTemplateStatus" | "chatTemplateIssue">): ChatTemplateIssue | null {
  if (model.chatTemplateStatus !== "error") return null;
  return model.chatTemplateIssue ?? { message: "The chat template failed to render at import.", line: null, column: null, templateName: null };
}

/**
 * Data for the model page's "Chat template" tab, or null when the model has no template. State
 * comes from the URL (a shared `s` link or the no-JavaScript form), else the default conversation.
 * `client` (the socket address) shares the sandbox's per-client cap with the render API.
 */
export async function loadChatTemplateTab(model: ChatTemplateModel, url: URL, client?: string): Promise<ChatTemplateTabData | null> {
  const source = model.chatTemplate;
  if (source === null || (Array.isArray(source) && source.length === 0)) return null;
  const templates = typeof source === "string" ? [templateSourceView(null, source)] : source.map((t) => templateSourceView(t.name, t.template));
  const { state: parsed, source: origin, notice } = stateFromUrl(url.searchParams, model.id);
  // The tab always previews this model's own template; pasted text belongs in the lab.
  let state: SharedState = { ...parsed, a: { ...parsed.a, model: model.id, text: null }, b: null };
  const names = templates.map((t) => t.name ?? "");
  const selected = pickTemplateIndex(typeof source === "string" ? [] : names, state.a.templateName, state.conversation.tools.trim() !== "");
  const template = templates[selected]?.text ?? "";
  const bos = state.a.bosToken ?? model.bosToken;
  const eos = state.a.eosToken ?? model.eosToken;

  let outcome = await renderPreviewOnServer(template, state.conversation, bos, eos, client);
  if (origin === "default" && outcome.kind === "error" && outcome.error.kind === "raised") {
    // Gemma, Mistral v0.1 and others reject a system turn on purpose: open on a conversation they accept.
    const retry = withoutSystemMessages(state.conversation);
    const second = await renderPreviewOnServer(template, retry, bos, eos, client);
    if (second.kind === "text") {
      state = { ...state, conversation: retry };
      outcome = second;
    }
  }
  return {
    modelId: model.id,
    templates,
    selected,
    modelBosToken: model.bosToken,
    modelEosToken: model.eosToken,
    state,
    outcome,
    notice,
    issue: chatTemplateWarning(model),
  };
}

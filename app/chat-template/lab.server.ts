import type { PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import { GGUF_TEMPLATE_NAME, sideTemplate, sideTokens, type LabSide } from "#app/chat-template/lab-sides.ts";
import type { SharedState, TemplateSide } from "#app/chat-template/preview-state.ts";
import { renderPreviewOnServer } from "#app/chat-template/preview.server.ts";
import { stateFromUrl } from "#app/chat-template/url-state.server.ts";
import { getDb } from "#app/db/db.server.ts";
import {
  getModelChatTemplate,
  listChatTemplateModels,
  modelsWithChatTemplate,
  type ChatTemplateModelOption,
} from "#app/db/queries/chat-templates.server.ts";

export interface LabData {
  state: SharedState;
  a: LabSide;
  b: LabSide | null;
  outcomes: { a: PreviewOutcome | null; b: PreviewOutcome | null };
  models: ChatTemplateModelOption[];
  notice: string | null;
  /** Changes whenever the loader ran with new input, so the page can reset its client state. */
  key: string;
}

async function resolveSide(side: TemplateSide): Promise<LabSide> {
  if (side.model === null) return { state: side, templates: [], model: null, problem: null };
  const { db } = getDb();
  const record = await getModelChatTemplate(db, side.model);
  if (!record) return { state: side, templates: [], model: null, problem: `No model “${side.model}” in this catalogue.` };
  const bases = await modelsWithChatTemplate(
    db,
    record.baseModels.map((b) => b.id).filter((id) => id !== record.id),
  );
  const model: LabSide["model"] = {
    id: record.id,
    status: record.status,
    issue: record.issue,
    bosToken: record.bosToken,
    eosToken: record.eosToken,
    comparableBases: [...bases],
  };
  const source = record.chatTemplate;
  const templates: LabSide["templates"] =
    source === null ? [] : typeof source === "string" ? [{ name: null, text: source }] : source.map((t) => ({ name: t.name, text: t.template }));
  if (record.ggufTemplate !== null && !templates.some((t) => t.text === record.ggufTemplate)) {
    templates.push({ name: GGUF_TEMPLATE_NAME, text: record.ggufTemplate });
  }
  // A listing row carries no configuration: "has none" would claim more than the catalogue knows.
  const problem = templates.length === 0 ? `This catalogue has no chat template for ${record.id}.` : null;
  // The no-JavaScript form sends back the model's own text and tokens; they are not edits.
  const state: TemplateSide = {
    ...side,
    model: record.id,
    text: side.text !== null && templates.some((t) => t.text === side.text) ? null : side.text,
    bosToken: side.bosToken === (record.bosToken ?? "") ? null : side.bosToken,
    eosToken: side.eosToken === (record.eosToken ?? "") ? null : side.eosToken,
  };
  return { state, templates, model, problem };
}

async function renderSide(side: LabSide, state: SharedState, client: string | undefined): Promise<PreviewOutcome | null> {
  const template = sideTemplate(side, state.conversation.tools.trim() !== "");
  if (!template) return null;
  const { bos, eos } = sideTokens(side);
  return renderPreviewOnServer(template.text, state.conversation, bos, eos, client);
}

/**
 * Everything /chat-template shows on first paint: the state from the URL (shared link or plain
 * form), each side's model looked up, both rendered in the sandbox. With no input at all the lab
 * opens on the most downloaded model that has a template. `client` (the socket address) shares the
 * sandbox's per-client cap with the render API.
 */
export async function loadLab(url: URL, client?: string): Promise<LabData> {
  const { db } = getDb();
  const { state: parsed, source, notice } = stateFromUrl(url.searchParams, null);
  const models = await listChatTemplateModels(db, { limit: 300 });
  let state = parsed;
  if (source === "default" && state.a.model === null && state.a.text === null) {
    const first = models.find((m) => m.status !== "error") ?? models[0];
    if (first) state = { ...state, a: { ...state.a, model: first.id } };
  }
  const [a, b] = await Promise.all([resolveSide(state.a), state.b ? resolveSide(state.b) : Promise.resolve(null)]);
  state = { ...state, a: a.state, b: b ? b.state : null };
  const [outA, outB] = await Promise.all([renderSide(a, state, client), b ? renderSide(b, state, client) : Promise.resolve(null)]);
  return {
    state,
    a,
    b,
    outcomes: { a: outA, b: outB },
    models,
    notice,
    key: url.search,
  };
}

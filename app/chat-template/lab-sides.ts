import type { ChatTemplateIssue, ChatTemplateStatus } from "#app/catalog/model-record.ts";
import { pickTemplateIndex, type TemplateSide } from "#app/chat-template/preview-state.ts";

/** The two template "sides" of the /chat-template lab. Isomorphic: the loader fills them, the page edits them. */

/** The name under which a model's GGUF-metadata template is offered next to its tokenizer_config one. */
export const GGUF_TEMPLATE_NAME = "@gguf";

export interface LabModelInfo {
  id: string;
  status: ChatTemplateStatus | null;
  issue: ChatTemplateIssue | null;
  bosToken: string | null;
  eosToken: string | null;
  /** Base models present in the catalogue with a chat template, for "compare with base model". */
  comparableBases: string[];
}

/** One side of the lab after the loader looked its model up. */
export interface LabSide {
  state: TemplateSide;
  /** The model's templates (named ones, plus "@gguf" when the GGUF one differs); empty for pasted text. */
  templates: Array<{ name: string | null; text: string }>;
  model: LabModelInfo | null;
  /** Why the requested model gives no template (unknown id, no template). */
  problem: string | null;
}

/** The template text a side renders: edited text, else the chosen named template of its model. */
export function sideTemplate(side: LabSide, hasTools: boolean): { text: string; name: string | null } | null {
  if (side.state.text !== null) return { text: side.state.text, name: null };
  if (side.templates.length === 0) return null;
  const names = side.templates.map((t) => t.name ?? "");
  const chosen = side.templates[pickTemplateIndex(names, side.state.templateName, hasTools)];
  return chosen ? { text: chosen.text, name: chosen.name } : null;
}

export function sideTokens(side: LabSide): { bos: string | null; eos: string | null } {
  const pick = (typed: string | null, model: string | null | undefined) => (typed === null ? (model ?? null) : typed === "" ? null : typed);
  return { bos: pick(side.state.bosToken, side.model?.bosToken), eos: pick(side.state.eosToken, side.model?.eosToken) };
}


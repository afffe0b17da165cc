import type { RenderChatTemplateInput, RenderError } from "#app/chat-template/render-types.ts";
import { toRenderInputs, type Conversation } from "#app/chat-template/preview-state.ts";

/**
 * What a preview panel shows: the rendered prompt, the template's error (with its position), or
 * a problem with the visitor's own input (a tools JSON that does not parse), which is not the
 * template's fault and is shown differently.
 */
export type PreviewOutcome =
  | { kind: "text"; text: string }
  | { kind: "error"; error: RenderError }
  | { kind: "input"; field: string; message: string };

/** A browser tab must not freeze on a runaway template: ~2 s worst case, 5x what real templates need. */
export const BROWSER_MAX_STEPS = 100_000;

export type PreviewRequest = { ok: true; input: RenderChatTemplateInput } | { ok: false; outcome: PreviewOutcome };

/** The engine input for one template and the edited conversation, or the input problem to show. */
export function previewRequest(template: string, conversation: Conversation, bosToken: string | null, eosToken: string | null): PreviewRequest {
  const inputs = toRenderInputs(conversation);
  if (!inputs.ok) return { ok: false, outcome: { kind: "input", field: inputs.field, message: inputs.message } };
  return {
    ok: true,
    input: {
      template,
      messages: inputs.value.messages,
      tools: inputs.value.tools,
      addGenerationPrompt: inputs.value.addGenerationPrompt,
      bosToken,
      eosToken,
    },
  };
}

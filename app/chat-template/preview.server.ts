import type { PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import { previewRequest } from "#app/chat-template/preview-outcome.ts";
import type { Conversation } from "#app/chat-template/preview-state.ts";
import { getChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";

/** Server render for the no-JavaScript first view, in the sandbox (time and size limits). */
export async function renderPreviewOnServer(
  template: string,
  conversation: Conversation,
  bosToken: string | null,
  eosToken: string | null,
): Promise<PreviewOutcome> {
  const request = previewRequest(template, conversation, bosToken, eosToken);
  if (!request.ok) return request.outcome;
  const { maxSteps: _ignored, ...input } = request.input;
  void _ignored;
  const result = await getChatTemplateSandbox().render(input);
  return result.ok ? { kind: "text", text: result.text } : { kind: "error", error: result.error };
}

/** A template's source as shown: highlighted HTML (trusted, from shiki) plus the exact text. */
export interface TemplateSourceView {
  name: string | null;
  text: string;
  html: string;
}

/** Very large templates are shown plain: highlighting them would cost more than it helps. */
const HIGHLIGHT_LIMIT = 128 * 1024;

export function templateSourceView(name: string | null, text: string): TemplateSourceView {
  const html =
    text.length <= HIGHLIGHT_LIMIT
      ? highlightCode(text, "jinja")
      : `<pre class="shiki"><code>${text
          .split("\n")
          .map((line) => `<span class="line">${line.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</span>`)
          .join("\n")}</code></pre>`;
  return { name, text, html };
}

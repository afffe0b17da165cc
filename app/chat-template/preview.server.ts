import type { PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import { previewRequest } from "#app/chat-template/preview-outcome.ts";
import type { Conversation } from "#app/chat-template/preview-state.ts";
import { getChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { highlightCode } from "#app/utils/highlight.server.ts";

/**
 * Server render for the no-JavaScript first view, in the sandbox (time and size limits), counted
 * against `client` (the socket address) like the render API. A busy or failed sandbox becomes an
 * error panel on the page, never a failed page.
 */
export async function renderPreviewOnServer(
  template: string,
  conversation: Conversation,
  bosToken: string | null,
  eosToken: string | null,
  client?: string,
): Promise<PreviewOutcome> {
  const request = previewRequest(template, conversation, bosToken, eosToken);
  if (!request.ok) return request.outcome;
  const { maxSteps: _ignored, ...input } = request.input;
  void _ignored;
  try {
    const result = await getChatTemplateSandbox().render(input, client === undefined ? {} : { client });
    if (result.ok) return { kind: "text", text: result.text };
    if (result.error.kind === "busy") {
      // The page cannot send Retry-After for one panel, so the panel says it instead.
      const seconds = result.error.retryAfterSeconds ?? 1;
      return { kind: "error", error: { ...result.error, message: `${result.error.message}. Reload the page in ${seconds} s to see the preview.` } };
    }
    return { kind: "error", error: result.error };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind: "error", error: { message: `The preview could not be rendered on the server: ${detail}`, kind: "unavailable", line: null, column: null, excerpt: null } };
  }
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

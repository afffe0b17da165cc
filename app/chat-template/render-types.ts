// What a chat-template render takes and gives back, shared by the pure renderer (render.ts and
// engine/render.ts), the server's sandbox and the views; apart from all of them so that none
// imports another only for its types (no import cycle, ADR 0042).

/**
 * Where an error comes from: the template does not parse ("syntax"), it fails while rendering
 * ("runtime"), it called raise_exception ("raised": the template rejects the input on purpose),
 * or a limit stopped it ("limit": size, memory or step caps; "timeout": the sandbox's time limit).
 * "unavailable" means the server could not render at all (shutting down, workers failed to start);
 * "busy" means this client or the server has too many renders in progress: retry later. Neither
 * is the template's fault.
 */
export type RenderErrorKind = "syntax" | "runtime" | "raised" | "limit" | "timeout" | "unavailable" | "busy";

export interface RenderError {
  message: string;
  kind: RenderErrorKind;
  /** 1-based line and column in the template; null when the position is unknown. */
  line: number | null;
  column: number | null;
  /** The lines up to the error with a caret under the column, for display in a <pre>. */
  excerpt: string | null;
  /** With kind "busy": whole seconds after which a retry should find room. */
  retryAfterSeconds?: number;
}

export type RenderChatTemplateResult = { ok: true; text: string } | { ok: false; error: RenderError };

export interface RenderChatTemplateInput {
  template: string;
  messages: unknown[];
  tools?: unknown[] | null;
  documents?: unknown[] | null;
  addGenerationPrompt?: boolean;
  bosToken?: string | null;
  eosToken?: string | null;
  /** Extra template variables, as keyword arguments to apply_chat_template (e.g. `enable_thinking`). */
  extraContext?: Record<string, unknown>;
  /** Clock for strftime_now; the current time when absent. */
  now?: Date;
  /**
   * Cap on interpreter evaluation steps. Protects a browser tab from a runaway template; the
   * server relies on the sandbox's time limit instead. Defaults to 50 million.
   */
  maxSteps?: number;
}

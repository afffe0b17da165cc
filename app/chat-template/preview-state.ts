/**
 * The editable inputs of a chat-template preview, shared by the model page's "Chat template" tab
 * and the /chat-template lab. Isomorphic: the loaders parse it from the URL, the browser edits it.
 * Messages are kept as the visitor typed them (tool calls as JSON text) and only turned into
 * render input by toRenderInput, so a half-typed JSON never loses the text.
 */

export const MESSAGE_ROLES = ["system", "user", "assistant", "tool"] as const;

export interface SampleMessage {
  role: string;
  content: string;
  /** Assistant turns: a JSON array of tool calls, or "" for none. */
  toolCalls: string;
  /** Tool turns: the tool's name and the id of the call it answers ("" for none). */
  name: string;
  toolCallId: string;
}

export interface Conversation {
  messages: SampleMessage[];
  /** The tools as JSON text; "" means no tools. */
  tools: string;
  addGenerationPrompt: boolean;
}

/** One template to render: a catalogue model's (by id and named-template name) or pasted text. */
export interface TemplateSide {
  model: string | null;
  templateName: string | null;
  /** The template text when pasted or edited; null means "the model's template". */
  text: string | null;
  /** null: the model's token (or none for pasted text). "" is an explicit empty token. */
  bosToken: string | null;
  eosToken: string | null;
}

export interface PreviewOptions {
  /** Show spaces, tabs and newlines as ·, → and ↵. */
  whitespace: boolean;
}

export const STATE_LIMITS = {
  messages: 64,
  contentChars: 20_000,
  toolsChars: 50_000,
  templateChars: 64 * 1024,
  tokenChars: 200,
} as const;

const TOOL_CALL_ID = "a1b2c3d4e";

/** transformers' own example tool; every parameter has a description, which some templates (Hermes) require. */
export const SAMPLE_TOOLS = JSON.stringify(
  [
    {
      type: "function",
      function: {
        name: "get_current_temperature",
        description: "Get the current temperature at a location.",
        parameters: {
          type: "object",
          properties: {
            location: { type: "string", description: 'The location, as "City, Country"' },
            unit: { type: "string", enum: ["celsius", "fahrenheit"], description: "The unit to return the temperature in" },
          },
          required: ["location"],
        },
      },
    },
  ],
  null,
  2,
);

const msg = (role: string, content: string, extra: Partial<SampleMessage> = {}): SampleMessage => ({
  role,
  content,
  toolCalls: "",
  name: "",
  toolCallId: "",
  ...extra,
});

export const PRESETS = {
  chat: {
    label: "Chat",
    conversation: (): Conversation => ({
      messages: [
        msg("system", "You are a helpful assistant."),
        msg("user", "Hello! Who are you?"),
        msg("assistant", "I am an assistant. How can I help?"),
        msg("user", "Tell me a short joke."),
      ],
      tools: "",
      addGenerationPrompt: true,
    }),
  },
  "no-system": {
    label: "Chat without system",
    conversation: (): Conversation => ({
      messages: [
        msg("user", "Hello! Who are you?"),
        msg("assistant", "I am an assistant. How can I help?"),
        msg("user", "Tell me a short joke."),
      ],
      tools: "",
      addGenerationPrompt: true,
    }),
  },
  tools: {
    label: "Tool calls",
    conversation: (): Conversation => ({
      messages: [
        msg("system", "You are a helpful assistant."),
        msg("user", "What is the temperature in Paris right now?"),
        msg("assistant", "", {
          // transformers' documented form: arguments as an object, an id that Mistral's 9-character rule accepts.
          toolCalls: JSON.stringify(
            [{ id: TOOL_CALL_ID, type: "function", function: { name: "get_current_temperature", arguments: { location: "Paris, France" } } }],
            null,
            2,
          ),
        }),
        msg("tool", "22.0", { name: "get_current_temperature", toolCallId: TOOL_CALL_ID }),
        msg("assistant", "It is 22 °C in Paris right now."),
        msg("user", "Thanks! And in Oslo?"),
      ],
      tools: SAMPLE_TOOLS,
      addGenerationPrompt: true,
    }),
  },
} as const satisfies Record<string, { label: string; conversation: () => Conversation }>;

export type PresetId = keyof typeof PRESETS;
export const PRESET_IDS = Object.keys(PRESETS) as PresetId[];

export function defaultConversation(): Conversation {
  return PRESETS.chat.conversation();
}

export function emptyMessage(role = "user"): SampleMessage {
  return msg(role, "");
}

// ---------------------------------------------------------------------------------------------
// Serialised state: the JSON inside the compressed `s` URL parameter (validated by
// url-state.server.ts, which keeps zod out of the browser bundle).

export interface SharedState {
  conversation: Conversation;
  options: PreviewOptions;
  a: TemplateSide;
  b: TemplateSide | null;
}

export interface SharedStateJson {
  v: 1;
  messages: Array<{ role: string; content: string; toolCalls?: string; name?: string; toolCallId?: string }>;
  tools?: string;
  addGenerationPrompt?: boolean;
  whitespace?: boolean;
  a?: Partial<TemplateSide>;
  b?: Partial<TemplateSide> | null;
}

export function emptySide(model: string | null = null): TemplateSide {
  return { model, templateName: null, text: null, bosToken: null, eosToken: null };
}

export function makeMessage(role: string, content: string, extra: Partial<SampleMessage> = {}): SampleMessage {
  return msg(role, content, extra);
}

/** The JSON form of a state, without empty optional fields, to keep links short. */
export function sharedStateToJson(state: SharedState): SharedStateJson {
  const side = (s: TemplateSide) => {
    const out: Partial<TemplateSide> = {};
    if (s.model !== null) out.model = s.model;
    if (s.templateName !== null) out.templateName = s.templateName;
    if (s.text !== null) out.text = s.text;
    if (s.bosToken !== null) out.bosToken = s.bosToken;
    if (s.eosToken !== null) out.eosToken = s.eosToken;
    return out;
  };
  return {
    v: 1,
    messages: state.conversation.messages.map((m) => {
      const out: SharedStateJson["messages"][number] = { role: m.role, content: m.content };
      if (m.toolCalls !== "") out.toolCalls = m.toolCalls;
      if (m.name !== "") out.name = m.name;
      if (m.toolCallId !== "") out.toolCallId = m.toolCallId;
      return out;
    }),
    ...(state.conversation.tools !== "" ? { tools: state.conversation.tools } : {}),
    ...(state.conversation.addGenerationPrompt ? {} : { addGenerationPrompt: false }),
    ...(state.options.whitespace ? { whitespace: true } : {}),
    a: side(state.a),
    ...(state.b ? { b: side(state.b) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Plain form fields: the no-JavaScript path. A GET form submits these names; loaders read them.

export const FIELD = {
  state: "s",
  whitespace: "ws",
  agp: "agp",
  tools: "tools",
  op: "op",
  messageCount: "n",
  message: (i: number, part: "role" | "content" | "tool_calls" | "name" | "tool_call_id") => `m${i}_${part}`,
  side: (side: "a" | "b", part: "model" | "template" | "text" | "bos" | "eos" | "loaded") => `${side}_${part}`,
  compare: "compare",
} as const;

/** Whether the query string carries a conversation typed into the no-JS form. */
export function hasFormConversation(params: URLSearchParams): boolean {
  return params.has(FIELD.messageCount);
}

/** Reads the conversation fields of the no-JS form, applying an `op` (add/remove a row, load a preset). */
export function conversationFromForm(params: URLSearchParams): Conversation {
  const count = Math.max(0, Math.min(STATE_LIMITS.messages, Number.parseInt(params.get(FIELD.messageCount) ?? "0", 10) || 0));
  const get = (name: string, max: number) => (params.get(name) ?? "").slice(0, max);
  let messages: SampleMessage[] = [];
  for (let i = 0; i < count; i++) {
    const role = get(FIELD.message(i, "role"), 64).trim() || "user";
    messages.push(
      msg(role, get(FIELD.message(i, "content"), STATE_LIMITS.contentChars), {
        toolCalls: get(FIELD.message(i, "tool_calls"), STATE_LIMITS.contentChars),
        name: get(FIELD.message(i, "name"), 256),
        toolCallId: get(FIELD.message(i, "tool_call_id"), 256),
      }),
    );
  }
  // An unchecked checkbox sends nothing, so the form also sends a hidden "0" first: the last value wins.
  const agpValues = params.getAll(FIELD.agp);
  const addGenerationPrompt = agpValues.length === 0 ? true : agpValues[agpValues.length - 1] === "1";
  let tools = get(FIELD.tools, STATE_LIMITS.toolsChars);

  const op = params.get(FIELD.op) ?? "";
  if (op.startsWith("add:")) {
    const role = op.slice(4);
    if ((MESSAGE_ROLES as readonly string[]).includes(role) && messages.length < STATE_LIMITS.messages) messages.push(emptyMessage(role));
  } else if (op.startsWith("remove:")) {
    const index = Number.parseInt(op.slice(7), 10);
    messages = messages.filter((_, i) => i !== index);
  } else if (op.startsWith("preset:")) {
    const id = op.slice(7);
    if ((PRESET_IDS as string[]).includes(id)) {
      const preset = PRESETS[id as PresetId].conversation();
      messages = preset.messages;
      tools = preset.tools;
    }
  }
  return { messages, tools, addGenerationPrompt };
}

export function whitespaceFromForm(params: URLSearchParams): boolean {
  const values = params.getAll(FIELD.whitespace);
  return values[values.length - 1] === "1";
}

/** Reads one template side of the no-JS form; tokens are null when the form did not send them. */
export function sideFromForm(params: URLSearchParams, side: "a" | "b"): TemplateSide {
  const opt = (part: "model" | "template" | "text" | "bos" | "eos" | "loaded", max: number): string | null => {
    const value = params.get(FIELD.side(side, part));
    return value === null ? null : value.slice(0, max);
  };
  const model = opt("model", 200)?.trim() || null;
  const text = opt("text", STATE_LIMITS.templateChars);
  // The lab's form carries the template text and tokens of the model it showed (`loaded`); when the
  // visitor typed another model id, those belong to the old model and must not override the new one.
  const loaded = opt("loaded", 200);
  const stale = loaded !== null && loaded !== (model ?? "");
  return {
    model,
    templateName: stale ? null : opt("template", 100)?.trim() || null,
    // Browsers submit textareas with CRLF line ends; templates are LF.
    text: stale || text === null || text.trim() === "" ? null : text.replace(/\r\n?/g, "\n"),
    bosToken: stale ? null : opt("bos", STATE_LIMITS.tokenChars),
    eosToken: stale ? null : opt("eos", STATE_LIMITS.tokenChars),
  };
}

// ---------------------------------------------------------------------------------------------
// From state to engine input.

export interface RenderInputs {
  messages: unknown[];
  tools: unknown[] | null;
  addGenerationPrompt: boolean;
}

export type RenderInputsResult = { ok: true; value: RenderInputs } | { ok: false; field: string; message: string };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Turns the edited conversation into apply_chat_template's inputs: assistant tool calls and the
 * tools list are parsed from their JSON text; a tool turn carries name and tool_call_id.
 */
export function toRenderInputs(conversation: Conversation): RenderInputsResult {
  const messages: unknown[] = [];
  for (const [i, m] of conversation.messages.entries()) {
    const out: Record<string, unknown> = { role: m.role, content: m.content };
    if (m.role === "assistant" && m.toolCalls.trim() !== "") {
      const parsed = parseJson(m.toolCalls);
      if (!parsed.ok) return { ok: false, field: `Message ${i + 1} tool calls`, message: `not valid JSON (${parsed.message})` };
      if (!Array.isArray(parsed.value)) return { ok: false, field: `Message ${i + 1} tool calls`, message: "must be a JSON array of tool calls" };
      out["tool_calls"] = parsed.value;
    }
    if (m.role === "tool") {
      if (m.name !== "") out["name"] = m.name;
      if (m.toolCallId !== "") out["tool_call_id"] = m.toolCallId;
    }
    messages.push(out);
  }
  let tools: unknown[] | null = null;
  if (conversation.tools.trim() !== "") {
    const parsed = parseJson(conversation.tools);
    if (!parsed.ok) return { ok: false, field: "Tools", message: `not valid JSON (${parsed.message})` };
    if (!Array.isArray(parsed.value)) return { ok: false, field: "Tools", message: "must be a JSON array of tool definitions" };
    tools = parsed.value;
  }
  return { ok: true, value: { messages, tools, addGenerationPrompt: conversation.addGenerationPrompt } };
}

/** The same conversation without system turns, for templates that reject them on purpose. */
export function withoutSystemMessages(conversation: Conversation): Conversation {
  return { ...conversation, messages: conversation.messages.filter((m) => m.role !== "system") };
}

/**
 * Which of a model's named templates to show, as transformers picks it: the requested name;
 * else `tool_use` when tools are given and it exists; else `default`; else the first.
 */
export function pickTemplateIndex(names: readonly string[], requested: string | null, hasTools: boolean): number {
  if (names.length === 0) return 0;
  if (requested !== null) {
    const i = names.indexOf(requested);
    if (i >= 0) return i;
  }
  if (hasTools && names.includes("tool_use")) return names.indexOf("tool_use");
  const d = names.indexOf("default");
  return d >= 0 ? d : 0;
}

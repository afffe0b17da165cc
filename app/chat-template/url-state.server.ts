import { inflateRawSync } from "node:zlib";
import { z } from "zod";
import {
  conversationFromForm,
  defaultConversation,
  emptySide,
  FIELD,
  hasFormConversation,
  makeMessage,
  sideFromForm,
  STATE_LIMITS,
  whitespaceFromForm,
  type SharedState,
  type TemplateSide,
} from "#app/chat-template/preview-state.ts";
import { STATE_PARAM } from "#app/chat-template/url-state.ts";

/** A link longer than this is not a state this app wrote. */
const MAX_PARAM_CHARS = 64 * 1024;
/** Inflating stops here: a small link must not expand into a large allocation. */
const MAX_JSON_BYTES = 512 * 1024;

const str = (max: number) => z.string().max(max);
const messageJson = z.object({
  role: str(64),
  content: str(STATE_LIMITS.contentChars),
  toolCalls: str(STATE_LIMITS.contentChars).optional(),
  name: str(256).optional(),
  toolCallId: str(256).optional(),
});
const sideJson = z.object({
  model: str(200).nullable().optional(),
  templateName: str(100).nullable().optional(),
  text: str(STATE_LIMITS.templateChars).nullable().optional(),
  bosToken: str(STATE_LIMITS.tokenChars).nullable().optional(),
  eosToken: str(STATE_LIMITS.tokenChars).nullable().optional(),
});

/** Version 1 of the shared state. Unknown keys are dropped, so links outlive new fields. */
export const sharedStateSchema = z.object({
  v: z.literal(1),
  messages: z.array(messageJson).max(STATE_LIMITS.messages),
  tools: str(STATE_LIMITS.toolsChars).optional(),
  addGenerationPrompt: z.boolean().optional(),
  whitespace: z.boolean().optional(),
  a: sideJson.optional(),
  b: sideJson.nullable().optional(),
});

function sideFromJson(side: z.infer<typeof sideJson>): TemplateSide {
  return {
    model: side.model ?? null,
    templateName: side.templateName ?? null,
    text: side.text ?? null,
    bosToken: side.bosToken ?? null,
    eosToken: side.eosToken ?? null,
  };
}

/** Validates decoded state JSON; null when it is not a state this version understands. */
export function sharedStateFromJson(value: unknown): SharedState | null {
  const parsed = sharedStateSchema.safeParse(value);
  if (!parsed.success) return null;
  const data = parsed.data;
  return {
    conversation: {
      messages: data.messages.map((m) => makeMessage(m.role, m.content, { toolCalls: m.toolCalls ?? "", name: m.name ?? "", toolCallId: m.toolCallId ?? "" })),
      tools: data.tools ?? "",
      addGenerationPrompt: data.addGenerationPrompt ?? true,
    },
    options: { whitespace: data.whitespace ?? false },
    a: sideFromJson(data.a ?? {}),
    b: data.b ? sideFromJson(data.b) : null,
  };
}

/** Decodes an `s` parameter; null for anything malformed, oversized or of another version. */
export function decodeSharedState(param: string): SharedState | null {
  if (param.length === 0 || param.length > MAX_PARAM_CHARS || !/^[A-Za-z0-9_-]+$/.test(param)) return null;
  try {
    const json = inflateRawSync(Buffer.from(param, "base64url"), { maxOutputLength: MAX_JSON_BYTES }).toString("utf8");
    return sharedStateFromJson(JSON.parse(json));
  } catch {
    return null;
  }
}

export interface StateFromUrl {
  state: SharedState;
  /** Where the state came from: a shared link, the plain form, or nothing (defaults). */
  source: "link" | "form" | "default";
  /** Set when an `s` parameter was present but could not be read. */
  notice: string | null;
}

/**
 * The preview state a page starts from: the compressed `s` link when present and valid, else
 * the fields of the no-JavaScript form, else the default conversation. Side "a" defaults to
 * `defaultModel` (the model page's own model).
 */
export function stateFromUrl(params: URLSearchParams, defaultModel: string | null = null): StateFromUrl {
  const raw = params.get(STATE_PARAM);
  let notice: string | null = null;
  if (raw !== null) {
    const decoded = decodeSharedState(raw);
    if (decoded) return { state: decoded, source: "link", notice: null };
    notice = "The preview settings in this link could not be read, so the defaults are shown.";
  }
  const formSideA = sideFromForm(params, "a");
  const a: TemplateSide = { ...formSideA, model: formSideA.model ?? defaultModel };
  const compare = params.getAll(FIELD.compare).at(-1) === "1";
  if (hasFormConversation(params)) {
    return {
      state: {
        conversation: conversationFromForm(params),
        options: { whitespace: whitespaceFromForm(params) },
        a,
        b: compare ? sideFromForm(params, "b") : null,
      },
      source: "form",
      notice,
    };
  }
  const touched = a.model !== defaultModel || a.text !== null || a.templateName !== null || compare;
  return {
    state: {
      conversation: defaultConversation(),
      options: { whitespace: whitespaceFromForm(params) },
      a: touched ? a : { ...emptySide(defaultModel), templateName: a.templateName },
      b: compare ? sideFromForm(params, "b") : null,
    },
    source: touched ? "form" : "default",
    notice,
  };
}

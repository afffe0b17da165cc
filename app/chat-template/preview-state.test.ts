import { describe, expect, it } from "vitest";
import {
  conversationFromForm,
  defaultConversation,
  FIELD,
  pickTemplateIndex,
  PRESETS,
  sharedStateToJson,
  sideFromForm,
  toRenderInputs,
  type SharedState,
} from "#app/chat-template/preview-state.ts";
import { decodeSharedState, sharedStateFromJson, stateFromUrl } from "#app/chat-template/url-state.server.ts";
import { encodeSharedState, STATE_PARAM } from "#app/chat-template/url-state.ts";
import { deflateRawSync } from "node:zlib";

function formParams(state: SharedState): URLSearchParams {
  const p = new URLSearchParams();
  const { messages } = state.conversation;
  p.set(FIELD.messageCount, String(messages.length));
  messages.forEach((m, i) => {
    p.set(FIELD.message(i, "role"), m.role);
    p.set(FIELD.message(i, "content"), m.content);
    p.set(FIELD.message(i, "tool_calls"), m.toolCalls);
    p.set(FIELD.message(i, "name"), m.name);
    p.set(FIELD.message(i, "tool_call_id"), m.toolCallId);
  });
  p.set(FIELD.tools, state.conversation.tools);
  p.append(FIELD.agp, "0");
  if (state.conversation.addGenerationPrompt) p.append(FIELD.agp, "1");
  return p;
}

const toolState = (): SharedState => ({
  conversation: PRESETS.tools.conversation(),
  options: { whitespace: true },
  a: { model: "org/model", templateName: "tool_use", text: null, bosToken: "", eosToken: "<|eot|>" },
  b: { model: null, templateName: null, text: "{{ messages | length }}\r\nx", bosToken: null, eosToken: null },
});

describe("no-JavaScript form fields", () => {
  it("read back the conversation they were written from, checkbox included", () => {
    const state = toolState();
    expect(conversationFromForm(formParams(state))).toEqual(state.conversation);
    const off = { ...state, conversation: { ...state.conversation, addGenerationPrompt: false } };
    expect(conversationFromForm(formParams(off)).addGenerationPrompt).toBe(false);
  });

  it("apply add, remove and preset buttons", () => {
    const p = formParams({ ...toolState(), conversation: defaultConversation() });
    p.set(FIELD.op, "add:tool");
    expect(conversationFromForm(p).messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "tool"]);
    p.set(FIELD.op, "remove:0");
    expect(conversationFromForm(p).messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    p.set(FIELD.op, "preset:tools");
    const preset = conversationFromForm(p);
    expect(preset.tools).toBe(PRESETS.tools.conversation().tools);
    expect(preset.messages.some((m) => m.role === "tool")).toBe(true);
    p.set(FIELD.op, "add:<script>");
    expect(conversationFromForm(p).messages).toHaveLength(4);
  });

  it("cap the message count and drop a side's text and tokens when its model id changed", () => {
    const p = new URLSearchParams({ [FIELD.messageCount]: "100000" });
    expect(conversationFromForm(p).messages).toHaveLength(64);
    const side = new URLSearchParams({ a_model: "new/model", a_loaded: "old/model", a_text: "old text", a_bos: "<s>" });
    expect(sideFromForm(side, "a")).toEqual({ model: "new/model", templateName: null, text: null, bosToken: null, eosToken: null });
    side.set("a_loaded", "new/model");
    expect(sideFromForm(side, "a")).toMatchObject({ text: "old text", bosToken: "<s>", eosToken: null });
  });
});

describe("render inputs", () => {
  it("parse assistant tool calls and tools from JSON and attach tool-turn fields", () => {
    const result = toRenderInputs(PRESETS.tools.conversation());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const messages = result.value.messages as Array<Record<string, unknown>>;
    expect(messages[2]?.["tool_calls"]).toEqual([
      { id: "a1b2c3d4e", type: "function", function: { name: "get_current_temperature", arguments: { location: "Paris, France" } } },
    ]);
    expect(messages[3]).toEqual({ role: "tool", content: "22.0", name: "get_current_temperature", tool_call_id: "a1b2c3d4e" });
    expect(messages[0]).toEqual({ role: "system", content: "You are a helpful assistant." });
    expect(result.value.tools).toHaveLength(1);
  });

  it("name the field whose JSON is wrong", () => {
    const c = PRESETS.tools.conversation();
    expect(toRenderInputs({ ...c, tools: "[{" })).toMatchObject({ ok: false, field: "Tools" });
    expect(toRenderInputs({ ...c, tools: "{}" })).toMatchObject({ ok: false, field: "Tools", message: expect.stringContaining("array") as string });
    const messages = c.messages.map((m, i) => (i === 2 ? { ...m, toolCalls: "{oops" } : m));
    expect(toRenderInputs({ ...c, messages })).toMatchObject({ ok: false, field: "Message 3 tool calls" });
  });
});

describe("named template choice", () => {
  it("follows transformers: the name, else tool_use with tools, else default", () => {
    const names = ["default", "tool_use", "rag"];
    expect(pickTemplateIndex(names, "rag", false)).toBe(2);
    expect(pickTemplateIndex(names, null, true)).toBe(1);
    expect(pickTemplateIndex(names, null, false)).toBe(0);
    expect(pickTemplateIndex(["rag", "default"], "missing", false)).toBe(1);
    expect(pickTemplateIndex([], null, true)).toBe(0);
  });
});

describe("shared state in the URL", () => {
  it("round-trips through the browser's CompressionStream and the server's zlib", async () => {
    const state = toolState();
    const encoded = await encodeSharedState(state);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSharedState(encoded)).toEqual(state);
    const { state: fromUrl, source } = stateFromUrl(new URLSearchParams({ [STATE_PARAM]: encoded, tab: "x" }));
    expect(source).toBe("link");
    expect(fromUrl).toEqual(state);
    // A long pasted template still makes a link of reasonable length.
    const big = { ...state, b: { ...state.a, text: "{% for m in messages %}{{ '<|im_start|>' + m.role }}{% endfor %}\n".repeat(100) } };
    expect((await encodeSharedState(big)).length).toBeLessThan(1000);
  });

  it("rejects malformed, oversized, zip-bomb and wrong-version states", () => {
    expect(decodeSharedState("not base64!")).toBeNull();
    expect(decodeSharedState("AAAA")).toBeNull();
    const bomb = deflateRawSync(Buffer.from(JSON.stringify({ v: 1, messages: [], tools: " ".repeat(5_000_000) }))).toString("base64url");
    expect(decodeSharedState(bomb)).toBeNull();
    const v2 = deflateRawSync(Buffer.from(JSON.stringify({ v: 2, messages: [] }))).toString("base64url");
    expect(decodeSharedState(v2)).toBeNull();
    const { state, notice, source } = stateFromUrl(new URLSearchParams({ [STATE_PARAM]: "garbage" }), "org/m");
    expect(source).toBe("default");
    expect(notice).toMatch(/could not be read/);
    expect(state.a.model).toBe("org/m");
    expect(state.conversation).toEqual(defaultConversation());
  });

  it("keeps empty optional fields out of the JSON", () => {
    const json = sharedStateToJson({ conversation: defaultConversation(), options: { whitespace: false }, a: { model: "x/y", templateName: null, text: null, bosToken: null, eosToken: null }, b: null });
    expect(json).toEqual({ v: 1, messages: defaultConversation().messages.map((m) => ({ role: m.role, content: m.content })), a: { model: "x/y" } });
    expect(sharedStateFromJson(json)?.conversation).toEqual(defaultConversation());
  });
});

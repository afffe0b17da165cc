import { afterAll, describe, expect, it } from "vitest";
import type { ModelTemplateRecord } from "#app/chat-template/render-request.ts";
import { renderForApi, renderRequestSchema, zodErrorToBody } from "#app/chat-template/render-request.ts";
import { ChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";

const sandbox = new ChatTemplateSandbox({ timeoutMs: 2000 });
afterAll(() => sandbox.close());
const render = (input: Parameters<ChatTemplateSandbox["render"]>[0]) => sandbox.render(input);

const models: Record<string, ModelTemplateRecord> = {
  "org/chat": {
    chatTemplate: [
      { name: "default", template: "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}" },
      { name: "tool_use", template: "TOOLS:{{ tools | length }}{% for m in messages %}[{{ m.role }}]{% endfor %}" },
    ],
    bosToken: "<s>",
    eosToken: "</s>",
  },
  "org/base": { chatTemplate: null, bosToken: null, eosToken: null },
};
const lookup = async (id: string) => models[id] ?? null;
const messages = [{ role: "user", content: "Hi" }];

function fieldOf(body: unknown): string | null {
  const parsed = renderRequestSchema.safeParse(body);
  if (parsed.success) throw new Error("expected a validation error");
  return zodErrorToBody(parsed.error).error.field;
}

describe("renderRequestSchema", () => {
  it("names the offending field", () => {
    expect(fieldOf({ template: "x" })).toBe("messages");
    expect(fieldOf({ messages })).toBe("template");
    expect(fieldOf({ template: "x", model: "org/chat", messages })).toBe("model");
    expect(fieldOf({ template: "x", messages: [{ role: 3, content: "a" }] })).toBe("messages[0].role");
    expect(fieldOf({ template: "x", messages: [{ role: "user", content: 5 }] })).toBe("messages[0].content");
    expect(fieldOf({ template: "x", messages, add_generation_prompt: "yes" })).toBe("add_generation_prompt");
    expect(fieldOf({ template: "x", messages, surprise: 1 })).toBe("surprise");
    expect(fieldOf({ template: "x".repeat(256 * 1024 + 1), messages })).toBe("template");
    expect(fieldOf({ template: "x", messages: Array.from({ length: 501 }, () => messages[0]) })).toBe("messages");
    expect(fieldOf("not an object")).toBeNull();
    // The Hub's id grammar, shared with the importer and the gateway.
    expect(fieldOf({ model: "../../etc/passwd", messages })).toBe("model");
    expect(fieldOf({ model: "api/models", messages })).toBe("model");
  });

  it("keeps extra message fields that templates read (reasoning_content, …)", () => {
    const parsed = renderRequestSchema.parse({ template: "x", messages: [{ role: "assistant", content: null, reasoning_content: "r" }] });
    expect(parsed.messages[0]).toEqual({ role: "assistant", content: null, reasoning_content: "r" });
  });
});

describe("renderForApi", () => {
  it("renders an inline template", async () => {
    const response = await renderForApi(
      { template: "{% for m in messages %}{{ m.content }}{% endfor %}{{ eos_token }}", messages, eos_token: "</s>" },
      lookup,
      render,
    );
    expect(response).toEqual({ status: 200, body: { text: "Hi</s>", templateName: null } });
  });

  it("renders a model's default template with its tokens, and tool_use when tools are given", async () => {
    expect(await renderForApi({ model: "org/chat", messages }, lookup, render)).toEqual({
      status: 200,
      body: { text: "<s>[user]Hi", templateName: "default" },
    });
    const tools = [{ type: "function", function: { name: "f" } }];
    expect(await renderForApi({ model: "org/chat", messages, tools }, lookup, render)).toEqual({
      status: 200,
      body: { text: "TOOLS:1[user]", templateName: "tool_use" },
    });
    expect(await renderForApi({ model: "org/chat", messages, bos_token: null }, lookup, render)).toMatchObject({
      status: 200,
      body: { text: "[user]Hi" },
    });
  });

  it("answers 400 for a bad body or unknown template name, 404 for a missing model or template", async () => {
    expect(await renderForApi({ messages }, lookup, render)).toMatchObject({ status: 400, body: { error: { field: "template" } } });
    expect(await renderForApi({ model: "org/chat", messages, template_name: "rag" }, lookup, render)).toMatchObject({
      status: 400,
      body: { error: { field: "template_name" } },
    });
    expect(await renderForApi({ model: "org/none", messages }, lookup, render)).toMatchObject({ status: 404 });
    expect(await renderForApi({ model: "org/base", messages }, lookup, render)).toMatchObject({
      status: 404,
      body: { error: { message: "This catalogue has no chat template for model org/base" } },
    });
  });

  it("answers 422 with the position of a render error", async () => {
    const response = await renderForApi({ template: "ok\n{{ raise_exception('nope') }}", messages }, lookup, render);
    expect(response).toMatchObject({
      status: 422,
      body: { error: { message: "nope", kind: "raised", line: 2, column: 4, templateName: null } },
    });
  });

  it("answers 422 for a template that would hang", async () => {
    const response = await renderForApi({ template: "{% for i in range(10**9) %}{% endfor %}", messages }, lookup, render);
    expect(response).toMatchObject({ status: 422, body: { error: { line: 1 } } });
  });
});

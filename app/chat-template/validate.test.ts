import { afterAll, describe, expect, it } from "vitest";
import { ChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { validateChatTemplate } from "#app/chat-template/validate.server.ts";
import { expectValidatesHubConfigs } from "#tests/support/chat-template-validation.ts";
import { chatTemplates } from "#tests/support/fixtures.ts";

const sandbox = new ChatTemplateSandbox({ timeoutMs: 2000 });
afterAll(() => sandbox.close());

const chatml =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
// Gemma's template (abridged): rejects a system turn on purpose.
const gemmaLike =
  "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{{ '<start_of_turn>' + message['role'] + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}";

describe("validateChatTemplate", () => {
  it("accepts a template that renders the standard conversation", async () => {
    expect(await validateChatTemplate(chatml, "<s>", "</s>", { sandbox })).toEqual({ status: "ok", issue: null });
  });

  it("accepts a template that deliberately refuses the system turn", async () => {
    expect(await validateChatTemplate(gemmaLike, "<bos>", "<eos>", { sandbox })).toEqual({ status: "ok", issue: null });
  });

  it("reports a broken template with its message, line and column", async () => {
    const broken = "{% for message in messages %}\n{{ message['content'] }}\n{% endfor %}\n{{ message.content | nosuchfilter }}";
    const result = await validateChatTemplate(broken, null, null, { sandbox });
    expect(result.status).toBe("error");
    expect(result.issue).toMatchObject({ line: 4, column: 22, templateName: null });
    expect(result.issue?.message).toContain("nosuchfilter");
  });

  it("reports a syntax error with its position", async () => {
    const result = await validateChatTemplate("{% if messages %}\n{{ messages[0] }", null, null, { sandbox });
    expect(result).toMatchObject({ status: "error", issue: { line: 2 } });
  });

  it("names the failing template of the named-templates form", async () => {
    const source = [
      { name: "default", template: chatml },
      { name: "tool_use", template: "{% for t in tools %}{{ t.name }}{% endfor %}{{ messages[0].content | no_such_filter }}" },
    ];
    const result = await validateChatTemplate(source, null, null, { sandbox });
    expect(result).toMatchObject({ status: "error", issue: { templateName: "tool_use" } });
    expect(result.issue?.message).toMatch(/no_such_filter|Unknown/i);
  });

  it("reports a hostile template as an error instead of hanging", async () => {
    const result = await validateChatTemplate("{% for i in range(10**9) %}{% endfor %}", null, null, { sandbox });
    expect(result).toMatchObject({ status: "error", issue: { line: 1 } });
  });
});

describe("validateChatTemplates", () => {
  it("validates one real Hub config per distinct template, rendering each distinct template once", async () => {
    // The fixture keeps one row per distinct (template, bos, eos) of the 1,270 Hub configs; the
    // data suite runs all 1,270 (validate.data.test.ts).
    await expectValidatesHubConfigs(chatTemplates().tokenizerConfigs, 0.9);
  });
});

describe("tool-use templates", () => {
  it("passes a named tool_use template that requires a tools list", async () => {
    const { validateChatTemplate } = await import("#app/chat-template/validate.server.ts");
    const res = await validateChatTemplate(
      [
        { name: "default", template: "{% for m in messages %}{{ m.content }}{% endfor %}" },
        { name: "tool_use", template: "{% for t in tools %}{{ t.function.name }}{% endfor %}{% for m in messages %}{{ m.content }}{% endfor %}" },
      ],
      null,
      null,
    );
    expect(res).toEqual({ status: "ok", issue: null });
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ChatTemplateSandbox } from "#app/chat-template/sandbox.server.ts";
import { validateChatTemplate, validateChatTemplates } from "#app/chat-template/validate.server.ts";
import type { ChatTemplateValidationItem } from "#app/chat-template/validate.server.ts";

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
  it("validates the 1,270 real Hub configs, rendering each distinct template once", async () => {
    const file = path.resolve(import.meta.dirname, "../../../shared/data/chat-templates/hub-tokenizer-configs-2024-07.jsonl");
    const rows = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { chat_template: string; bos_token: string | null; eos_token: string | null });
    const items: ChatTemplateValidationItem[] = rows.map((row) => ({ chatTemplate: row.chat_template, bosToken: row.bos_token, eosToken: row.eos_token }));
    items.push({ chatTemplate: null, bosToken: null, eosToken: null });
    const distinct = new Set(items.map((item) => JSON.stringify([item.chatTemplate, item.bosToken, item.eosToken])));
    const local = new ChatTemplateSandbox({ timeoutMs: 2000 });
    const spy = vi.spyOn(local, "render");
    try {
      const results = await validateChatTemplates(items, { sandbox: local });
      expect(results).toHaveLength(items.length);
      expect(results.at(-1)).toBeNull();
      const statuses = results.slice(0, -1).map((result) => result?.status);
      expect(statuses.every((status) => status === "ok" || status === "error")).toBe(true);
      expect(statuses.filter((status) => status === "ok").length).toBeGreaterThan(1200);
      // At most two renders (with and without the system turn) per distinct template + tokens.
      expect(spy.mock.calls.length).toBeLessThanOrEqual(2 * (distinct.size - 1));
      // The failures are real template faults (ShareGPT-style `message['value']`, a parse error); each is located.
      for (const result of results) {
        if (result?.status === "error") expect(result.issue).toMatchObject({ message: expect.any(String), line: expect.any(Number) });
      }
    } finally {
      await local.close();
    }
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

import { describe, expect, it } from "vitest";
import { listTemplateNames, renderChatTemplate, selectTemplate } from "#app/chat-template/render.ts";

const chat = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Hi" },
  { role: "assistant", content: "Hello!" },
];

const chatml =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

function errorOf(result: ReturnType<typeof renderChatTemplate>) {
  if (result.ok) throw new Error(`expected an error, got text ${JSON.stringify(result.text)}`);
  return result.error;
}

describe("renderChatTemplate", () => {
  it("renders a ChatML template with the generation prompt", () => {
    const result = renderChatTemplate({ template: chatml, messages: chat, addGenerationPrompt: true });
    expect(result).toEqual({
      ok: true,
      text: "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n<|im_start|>assistant\n",
    });
  });

  it("applies trim_blocks and lstrip_blocks like transformers", () => {
    const template = "{% for m in messages %}\n    {% if m.role == 'user' %}\n[{{ m.content }}]\n    {% endif %}\n{% endfor %}\n";
    expect(renderChatTemplate({ template, messages: chat })).toEqual({ ok: true, text: "[Hi]\n" });
  });

  it("passes tools as none when absent and leaves a missing bos_token undefined", () => {
    const template = "{{ tools is none }}|{{ bos_token is defined }}|{{ eos_token }}";
    expect(renderChatTemplate({ template, messages: [], eosToken: "</s>" })).toEqual({ ok: true, text: "True|False|</s>" });
  });

  it("defines strftime_now with Python's C-locale formatting", () => {
    const now = new Date(2024, 8, 3, 7, 5, 9);
    const result = renderChatTemplate({ template: "{{ strftime_now('%d %b %Y %H:%M:%S %A %B %-d %j') }}", messages: [], now });
    expect(result).toEqual({ ok: true, text: "03 Sep 2024 07:05:09 Tuesday September 3 247" });
  });

  it("passes extra context as template variables but never over the core ones", () => {
    const result = renderChatTemplate({
      template: "{{ enable_thinking }} {{ messages | length }}",
      messages: chat,
      extraContext: { enable_thinking: false, messages: [] },
    });
    expect(result).toEqual({ ok: true, text: "False 3" });
  });

  it("reports raise_exception as a 'raised' error at the call", () => {
    const template = "{% for m in messages %}\n{% if m.role == 'system' %}\n  {{ raise_exception('System role not supported') }}\n{% endif %}\n{% endfor %}";
    const error = errorOf(renderChatTemplate({ template, messages: chat }));
    expect(error).toMatchObject({ message: "System role not supported", kind: "raised", line: 3, column: 6 });
    expect(error.excerpt).toBe(
      "1 | {% for m in messages %}\n2 | {% if m.role == 'system' %}\n3 |   {{ raise_exception('System role not supported') }}\n  |      ^",
    );
  });

  it("locates a runtime error inside a long one-line template", () => {
    const template = `${"{{ 'x' }}".repeat(30)}{{ undefined_function(1) }}`;
    const error = errorOf(renderChatTemplate({ template, messages: [] }));
    expect(error).toMatchObject({ kind: "runtime", line: 1, column: 30 * 9 + 4 });
    expect(error.message).toContain("not a function");
    expect(error.excerpt).toContain("undefined_function(1)");
  });

  it("locates a runtime error inside a macro body, not at the call site", () => {
    const template = "{% macro f(x) %}\n{{ x.a.b.c + 1 }}\n{% endmacro %}\n{{ f({}) }}";
    const error = errorOf(renderChatTemplate({ template, messages: [] }));
    expect(error).toMatchObject({ kind: "runtime", line: 2 });
  });

  it("locates a lexer error at the offending character", () => {
    const template = "line one\n{{ messages ; }}";
    const error = errorOf(renderChatTemplate({ template, messages: [] }));
    expect(error).toMatchObject({ kind: "syntax", message: "Unexpected character: ;", line: 2, column: 13 });
  });

  it("locates a parser error at the unexpected token", () => {
    const template = "{% if messages %}\nok\n{% for m in messages %}{{ m }}{% endif %}";
    const error = errorOf(renderChatTemplate({ template, messages: [] }));
    expect(error.kind).toBe("syntax");
    expect(error.line).toBe(3);
    expect(error.column).toBe(34);
  });

  it("reports an unclosed block as an end-of-template syntax error", () => {
    const error = errorOf(renderChatTemplate({ template: "{% for m in messages %}\n{{ m }}\n", messages: [] }));
    expect(error).toMatchObject({ kind: "syntax", line: 2 });
    expect(error.message).toMatch(/end of template/);
  });

  it("maps positions through lstrip_blocks and generation tags back to the original text", () => {
    const template = "    {% generation %}\n  {%- if true %}\n\t\t{{ nope() }}\n{% endif %}{% endgeneration %}";
    const error = errorOf(renderChatTemplate({ template, messages: [] }));
    expect(error).toMatchObject({ line: 3, column: 6 });
  });

  it("blocks ranges above Jinja's sandbox MAX_RANGE with the same message", () => {
    const error = errorOf(renderChatTemplate({ template: "{% for i in range(10**9) %}{% endfor %}", messages: [] }));
    expect(error.message).toBe("Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
    expect(renderChatTemplate({ template: "{{ range(2, 11, 3) | join(',') }}", messages: [] })).toEqual({ ok: true, text: "2,5,8" });
  });

  it("stops after maxSteps evaluation steps", () => {
    const template = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";
    const error = errorOf(renderChatTemplate({ template, messages: [], maxSteps: 100_000 }));
    expect(error.kind).toBe("limit");
  });
});

describe("selectTemplate", () => {
  const named = [
    { name: "default", template: "D" },
    { name: "tool_use", template: "T" },
    { name: "rag", template: "R" },
  ];

  it("follows transformers: explicit name, else tool_use with tools, else default", () => {
    expect(selectTemplate(named, "rag")).toEqual({ ok: true, name: "rag", template: "R" });
    expect(selectTemplate(named, null, { hasTools: true })).toEqual({ ok: true, name: "tool_use", template: "T" });
    expect(selectTemplate(named)).toEqual({ ok: true, name: "default", template: "D" });
    expect(selectTemplate("S")).toEqual({ ok: true, name: null, template: "S" });
  });

  it("explains a missing name or a list without default", () => {
    const missing = selectTemplate(named, "nope");
    expect(missing).toMatchObject({ ok: false, available: ["default", "tool_use", "rag"] });
    expect(selectTemplate([{ name: "a", template: "A" }])).toMatchObject({ ok: false, available: ["a"] });
    expect(selectTemplate("S", "tool_use")).toMatchObject({ ok: false });
  });

  it("lists names", () => {
    expect(listTemplateNames(named)).toEqual(["default", "tool_use", "rag"]);
    expect(listTemplateNames("S")).toEqual([]);
  });
});

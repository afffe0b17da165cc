import * as jinja from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { preprocess, toOriginal } from "#app/chat-template/engine/preprocess.ts";

const templates = [
  "{% for m in messages %}\n    {% if m.role == 'user' %}\n[{{ m.content }}]\n    {% endif %}\n{% endfor %}\n",
  "    {% generation %}\n  {%- if true %}\n\t\t{{ nope() }}\n{% endif %}{% endgeneration %}",
  "a {% generation -%}  b  {%- endgeneration %} c\n{# note #}\nd",
  "{{ bos_token }}\r\n  {%- set x = 1 -%}\n",
  "",
];

describe("preprocess", () => {
  it.each(templates)("lexes to the same tokens as the library's own lstrip/trim preprocessing: %j", (template) => {
    const pre = preprocess(template);
    expect(jinja.tokenize(pre.text)).toEqual(jinja.tokenize(template, { lstrip_blocks: true, trim_blocks: true }));
  });

  it.each(templates)("maps every kept character back to the same character of the template: %j", (template) => {
    const pre = preprocess(template);
    expect(pre.map).toHaveLength(pre.text.length + 1);
    for (let i = 0; i < pre.text.length; i++) expect(template[pre.map[i] ?? -1]).toBe(pre.text[i]);
    // Offsets only move forward, so a position found later in the text is later in the template.
    for (let i = 1; i < pre.map.length; i++) expect(pre.map[i]).toBeGreaterThan(pre.map[i - 1] ?? -1);
  });

  it("drops the indentation before a block tag and the newline after it", () => {
    const pre = preprocess("x\n  {% if a %}\nA{% endif %}");
    expect(pre.text).toBe("x\n{% if a %}A{% endif %}");
    expect(toOriginal(pre, pre.text.indexOf("{% if"))).toBe(4);
    expect(toOriginal(pre, pre.text.indexOf("A"))).toBe(15);
  });
});

describe("toOriginal", () => {
  it("passes null through and clamps offsets to the text", () => {
    const pre = preprocess("  {% if a %}\nA{% endif %}\n");
    expect(toOriginal(pre, null)).toBeNull();
    expect(toOriginal(pre, -5)).toBe(2);
    expect(toOriginal(pre, 10_000)).toBe(pre.map[pre.map.length - 1]);
  });
});

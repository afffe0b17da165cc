import * as jinja from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { statementNodes } from "#app/chat-template/engine/jinja-ast.ts";
import {
  alignTokens,
  excerpt,
  lineColumn,
  locateLexerError,
  locateParserError,
  nodeSpans,
  positionAt,
} from "#app/chat-template/engine/positions.ts";
import { preprocess } from "#app/chat-template/engine/preprocess.ts";

describe("lineColumn and excerpt", () => {
  it("counts 1-based lines and columns", () => {
    expect(lineColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn("ab\n", 3)).toEqual({ line: 2, column: 1 });
  });

  it("shows up to two lines before the error and a caret under the column", () => {
    expect(excerpt("one\ntwo\nthree\nfour", 4, 3)).toBe(" 2 | two\n 3 | three\n 4 | four\n   |   ^".replace(/^ /gm, ""));
    expect(excerpt("a\nb\nc\nd\ne\nf\ng\nh\ni\nj", 10, 1)).toBe(" 8 | h\n 9 | i\n10 | j\n   | ^");
  });

  it("shows a window around the column of a long line", () => {
    const line = `${"x".repeat(300)}!${"y".repeat(300)}`;
    const shown = excerpt(line, 1, 301).split("\n");
    expect(shown[0]).toHaveLength("1 | ".length + 160);
    expect(shown[0]?.indexOf("!")).toBe(shown[1]?.indexOf("^"));
  });

  it("gives nulls for an unknown offset", () => {
    expect(positionAt("abc", null)).toEqual({ line: null, column: null, excerpt: null });
    expect(positionAt("a\nbc", 3)).toEqual({ line: 2, column: 2, excerpt: "1 | a\n2 | bc\n  |  ^" });
  });
});

describe("token and node positions", () => {
  it("finds where each token starts and ends in the preprocessed text", () => {
    const text = "Hi {{ name | upper }}{# c #}{% if x %}'q'{% endif %}";
    const aligned = alignTokens(text, jinja.tokenize(text));
    expect(aligned).not.toBeNull();
    const slices = jinja.tokenize(text).map((token, i) => text.slice(aligned?.starts[i], aligned?.ends[i]));
    expect(slices).toEqual(["Hi ", "{{", "name", "|", "upper", "}}", "{# c #}", "{%", "if", "x", "%}", "'q'", "{%", "endif", "%}"]);
  });

  it("gives each statement-list node the span of its tag", () => {
    const template = "A{{ x }}{% for i in y %}{{ i }}{% endfor %}";
    const pre = preprocess(template);
    const tokens = jinja.tokenize(pre.text);
    const program = jinja.parse(tokens);
    const spans = nodeSpans(program, tokens, pre);
    const tags = statementNodes(program).map((node) => {
      const span = spans.get(node);
      return span ? pre.text.slice(span.start, span.end) : null;
    });
    expect(tags).toEqual(["A", "{{ x }}", "{% for i in y %}", "{{ i }}"]);
  });
});

describe("syntax error positions", () => {
  it("puts a lexer error on the character the lexer stopped at", () => {
    const pre = preprocess("ok\n{{ a ; b }}");
    expect(locateLexerError(pre, "Unexpected character: ;")).toBe(pre.text.indexOf(";"));
    expect(locateLexerError(pre, "Unexpected end of input")).toBe(pre.text.length);
    expect(locateLexerError(pre, "a message the lexer does not give")).toBeNull();
  });

  it("puts a parser error on the last token the parser read, or past the end", () => {
    const wrong = preprocess("{% if a %}x{% endfor %}");
    expect(locateParserError(jinja.tokenize(wrong.text), wrong)).toEqual({ offset: wrong.text.indexOf("endfor"), pastEnd: false });
    const unclosed = preprocess("{% if a %}x");
    expect(locateParserError(jinja.tokenize(unclosed.text), unclosed)).toEqual({ offset: unclosed.text.length, pastEnd: true });
  });
});

import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "#app/markdown/front-matter.ts";

describe("splitFrontMatter", () => {
  it("splits a YAML mapping from the body", () => {
    const result = splitFrontMatter("---\nlicense: mit\nlanguage:\n  - en\n---\n# Title\n");
    expect(result).toEqual({ data: { license: "mit", language: ["en"] }, body: "# Title\n", error: null });
  });

  it("handles CRLF, a BOM and leading blank lines", () => {
    const result = splitFrontMatter("\uFEFF\r\n---\r\nlicense: mit\r\n---\r\nBody");
    expect(result).toEqual({ data: { license: "mit" }, body: "Body", error: null });
  });

  it("returns the input unchanged without front matter", () => {
    expect(splitFrontMatter("# Just markdown\n---\nnot: yaml\n---\n")).toEqual({
      data: null,
      body: "# Just markdown\n---\nnot: yaml\n---\n",
      error: null,
    });
  });

  it("treats an unclosed fence as a thematic break, not front matter", () => {
    const md = "---\nSome text after a rule\n";
    expect(splitFrontMatter(md)).toEqual({ data: null, body: md, error: null });
  });

  it("accepts empty front matter", () => {
    expect(splitFrontMatter("---\n---\nBody")).toEqual({ data: null, body: "Body", error: null });
  });

  it("reports invalid YAML instead of throwing and still removes it from the body", () => {
    const result = splitFrontMatter("---\nkey: [unclosed\nother: : :\n---\nBody");
    expect(result.data).toBeNull();
    expect(result.body).toBe("Body");
    expect(result.error).toMatch(/^Invalid YAML front matter: /);
  });

  it("rejects front matter that is not a mapping", () => {
    const result = splitFrontMatter("---\n- a\n- b\n---\nBody");
    expect(result.data).toBeNull();
    expect(result.error).toMatch(/mapping/);
  });

  it("tolerates duplicate keys (the last wins) and bounds alias expansion", () => {
    expect(splitFrontMatter("---\na: 1\na: 2\n---\n").data).toEqual({ a: 2 });
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 8; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`);
    const result = splitFrontMatter(`---\n${bomb.join("\n")}\n---\nBody`);
    expect(result.data).toBeNull();
    expect(result.error).toMatch(/alias/i);
  });
});

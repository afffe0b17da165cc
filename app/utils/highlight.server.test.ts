import { describe, expect, it } from "vitest";
import { highlightCode, resolveLanguage, supportedLanguages } from "#app/utils/highlight.server.ts";

function textOf(html: string): string {
  const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', amp: "&", apos: "'" };
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&(?:#x([0-9a-f]+)|#(\d+)|(lt|gt|quot|amp|apos));/gi, (_, hex?: string, dec?: string, name?: string) =>
      hex !== undefined
        ? String.fromCodePoint(Number.parseInt(hex, 16))
        : dec !== undefined
          ? String.fromCodePoint(Number(dec))
          : (named[name ?? ""] ?? ""),
    );
}

function codeText(html: string): string {
  return textOf(/<code>([\s\S]*)<\/code>/.exec(html)?.[1] ?? "");
}

describe("highlightCode", () => {
  const samples: Array<[string, string]> = [
    ["python", 'from transformers import pipeline\n\npipe = pipeline("text-generation")\nfor x in range(3):\n    print(pipe(f"<{x}> & \'q\'"))  \n'],
    ["bash", "pip install -U \\\n    transformers &&\n\techo \"$HOME\" > /dev/null\n\n\n"],
    ["javascript", "import { InferenceClient } from \"@huggingface/inference\";\n\nconst out = await client.chatCompletion({\n    model: \"x\",\n});\n"],
    ["json", '{\n    "a": [1, 2],\n    "b": "</script>"\n}'],
    ["jinja", "{% for m in messages %}{{ '<|im_start|>' + m['role'] }}\n{% endfor %}"],
    ["unknown-lang", "    keep   spacing\n\ttabs\n"],
  ];

  it.each(samples)("%s keeps every character", (lang, code) => {
    const html = highlightCode(code, lang);
    expect(html.startsWith('<pre class="shiki shiki-themes github-light-high-contrast github-dark-default"')).toBe(true);
    expect(codeText(html)).toBe(code);
  });

  it("really highlights known languages with both themes", () => {
    const html = highlightCode("def f(): pass", "python");
    expect(html).toMatch(/<span style="--shiki-light:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">def<\/span>/);
  });

  it("escapes HTML in unknown languages", () => {
    const html = highlightCode("<script>alert(1)</script>", "nope");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#x3C;script>");
  });

  it("normalises CRLF to LF and nothing else", () => {
    expect(codeText(highlightCode("a\r\nb\r\n", "text"))).toBe("a\nb\n");
  });

  it("returns the same string from its cache", () => {
    const first = highlightCode("x = 1", "python");
    expect(highlightCode("x = 1", "py")).toBe(first);
  });

  it("resolves aliases and fence info strings", () => {
    expect(resolveLanguage("py")).toBe("python");
    expect(resolveLanguage("Python {linenos}")).toBe("python");
    expect(resolveLanguage("sh")).toBe("shellscript");
    expect(resolveLanguage("BASH")).toBe("shellscript");
    expect(resolveLanguage("console")).toBe("shellsession");
    expect(resolveLanguage("jinja2")).toBe("jinja");
    expect(resolveLanguage("Dockerfile")).toBe("docker");
    expect(resolveLanguage("toml")).toBe("toml");
    expect(resolveLanguage("brainfuck")).toBe("text");
    expect(resolveLanguage(undefined)).toBe("text");
    for (const lang of ["python", "javascript", "typescript", "shellscript", "json", "yaml", "markdown", "jinja", "jinja-html", "c", "cpp", "rust", "go", "java", "sql", "html", "css", "diff", "dockerfile", "toml", "ini"]) {
      expect(supportedLanguages()).toContain(lang);
    }
  });
});

import { describe, expect, it } from "vitest";
import { compareOutputs, diffTemplateSources } from "#app/chat-template/output-diff.ts";
import { buildSegments, findSpecialTokens, visibleWhitespace } from "#app/chat-template/output-segments.ts";

const tokensOf = (text: string, own: string[] = []) => findSpecialTokens(text, own).map(([s, e]) => text.slice(s, e));

describe("special tokens", () => {
  it("finds the control tokens of the common families", () => {
    expect(tokensOf("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")).toEqual(["<|im_start|>", "<|im_end|>", "<|im_start|>"]);
    expect(tokensOf("<s>[INST] Hi [/INST] Hello</s>")).toEqual(["<s>", "[INST]", "[/INST]", "</s>"]);
    expect(tokensOf("<bos><start_of_turn>user\nHi<end_of_turn>\n")).toEqual(["<bos>", "<start_of_turn>", "<end_of_turn>"]);
    expect(tokensOf("<｜begin▁of▁sentence｜><｜User｜>Hi<｜Assistant｜>")).toEqual(["<｜begin▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>"]);
    expect(tokensOf("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>")).toHaveLength(4);
    expect(tokensOf("<BOS_TOKEN><|START_OF_TURN_TOKEN|><|USER_TOKEN|>Hi<|END_OF_TURN_TOKEN|>", ["<BOS_TOKEN>"])).toEqual([
      "<BOS_TOKEN>",
      "<|START_OF_TURN_TOKEN|>",
      "<|USER_TOKEN|>",
      "<|END_OF_TURN_TOKEN|>",
    ]);
    expect(tokensOf("a < b | c > d and x|y")).toEqual([]);
  });

  it("prefers the model's own tokens, longest first, and escapes them", () => {
    expect(tokensOf("[[END]]x[[END]]", ["[[END]]"])).toEqual(["[[END]]", "[[END]]"]);
    expect(tokensOf("a.b", ["."])).toEqual(["."]);
  });
});

describe("segments", () => {
  it("cover the text exactly and carry both marks", () => {
    const text = "<s>hello world</s>";
    const segments = buildSegments(text, findSpecialTokens(text), [[6, 12]]);
    expect(segments.map((s) => s.text).join("")).toBe(text);
    expect(segments).toEqual([
      { text: "<s>", special: true, changed: false },
      { text: "hel", special: false, changed: false },
      { text: "lo wor", special: false, changed: true },
      { text: "ld", special: false, changed: false },
      { text: "</s>", special: true, changed: false },
    ]);
  });

  it("show whitespace as markers and keep the real line breaks", () => {
    const pieces = visibleWhitespace("a b\tc\n\nd");
    expect(pieces.map((p) => p.text).join("")).toBe("a·b→c↵\n↵\nd");
    expect(pieces.filter((p) => p.marker).map((p) => p.text)).toEqual(["·", "→", "↵", "↵"]);
  });
});

describe("comparison", () => {
  it("marks what each side lacks", () => {
    const a = "<|im_start|>system\nYou are helpful.<|im_end|>\n";
    const b = "<|im_start|>system\nYou are very helpful.<|im_end|>\n";
    const c = compareOutputs(a, b);
    expect(c.identical).toBe(false);
    expect(c.removedChars).toBe(0);
    expect(c.changedB.map(([s, e]) => b.slice(s, e)).join("")).toBe("very ");
    expect(compareOutputs(a, a)).toMatchObject({ identical: true, changedA: [], changedB: [] });
  });

  it("falls back to line diffs for long outputs and diffs template sources by line", () => {
    const a = "x\n".repeat(20_000);
    const b = `${a}y\n`;
    const c = compareOutputs(a, b);
    expect(c.addedChars).toBe(2);
    expect(diffTemplateSources("a\nb\nc\n", "a\nB\nc\n")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "B" },
      { kind: "same", text: "c" },
    ]);
  });
});

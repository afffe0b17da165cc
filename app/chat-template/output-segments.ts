/**
 * Splits rendered prompts into display segments: special tokens, diff changes, plain text.
 * Isomorphic (the loader uses it for the no-JavaScript view, the browser on every keystroke).
 */

export interface OutputSegment {
  text: string;
  special: boolean;
  /** Part of a difference against the other template's output (compare mode). */
  changed: boolean;
}

/**
 * Spellings of control tokens across model families. A chat template prints them as plain text,
 * so without a tokenizer these patterns are how we find them: `<|im_start|>`, `<｜User｜>`
 * (full-width bars), `<s>`/`</s>`, `[INST]`, `<start_of_turn>`, `<|reserved_special_token_0|>`, …
 */
const SPECIAL_PATTERNS = [
  String.raw`<\|[^|<>\s]{1,64}\|>`,
  String.raw`<｜[^｜<>]{1,64}｜>`,
  String.raw`</?s>`,
  String.raw`<(?:bos|eos|pad|unk|mask|sep|cls)>`,
  String.raw`\[/?(?:INST|SYS|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|SYSTEM_PROMPT|THINK|IMG|TOOL_CONTENT|ARGS|CALL_ID)\]`,
  String.raw`<</?SYS>>`,
  String.raw`<(?:start|end)_of_turn>`,
  String.raw`<(?:start_of_image|end_of_image|image_soft_token)>`,
  String.raw`<\|?(?:START|END)_OF_TURN_TOKEN\|?>`,
  String.raw`<\|(?:USER|CHATBOT|SYSTEM)_TOKEN\|>`,
  String.raw`<\|?(?:begin|end)_of_text\|?>`,
  String.raw`<(?:tool_call|/tool_call|tool_response|/tool_response|tools|/tools|think|/think)>`,
  String.raw`<\|(?:system|user|assistant|end|endoftext)\|>`,
];

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** [start, end) ranges of special tokens in `text`: the model's own tokens plus the known spellings. */
export function findSpecialTokens(text: string, tokens: ReadonlyArray<string | null | undefined> = []): Array<[number, number]> {
  const own = tokens.filter((t): t is string => typeof t === "string" && t.length > 0 && t.length <= 200).map(escapeRegex);
  // Longest first, so "<|im_end|>" wins over a shorter model token it contains.
  const alternatives = [...own.sort((a, b) => b.length - a.length), ...SPECIAL_PATTERNS];
  const re = new RegExp(alternatives.join("|"), "gu");
  const ranges: Array<[number, number]> = [];
  for (const match of text.matchAll(re)) {
    if (match[0].length === 0) continue;
    const start = match.index;
    ranges.push([start, start + match[0].length]);
  }
  return ranges;
}

/** Merges two sets of ranges into consecutive segments over the whole text. */
export function buildSegments(text: string, special: ReadonlyArray<[number, number]>, changed: ReadonlyArray<[number, number]> = []): OutputSegment[] {
  const cuts = new Set<number>([0, text.length]);
  for (const [s, e] of special) cuts.add(s).add(e);
  for (const [s, e] of changed) cuts.add(s).add(e);
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
  const inside = (ranges: ReadonlyArray<[number, number]>, at: number) => ranges.some(([s, e]) => at >= s && at < e);
  const out: OutputSegment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i] ?? 0;
    const end = points[i + 1] ?? 0;
    if (end <= start) continue;
    const segment = { text: text.slice(start, end), special: inside(special, start), changed: inside(changed, start) };
    const last = out[out.length - 1];
    if (last && last.special === segment.special && last.changed === segment.changed) last.text += segment.text;
    else out.push(segment);
  }
  return out;
}

export interface WhitespacePiece {
  text: string;
  /** A visible stand-in for a space, tab or newline. */
  marker: boolean;
}

/** Spaces as ·, tabs as →, newlines as ↵ followed by the real newline (so lines still break). */
export function visibleWhitespace(text: string): WhitespacePiece[] {
  const out: WhitespacePiece[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ text: plain, marker: false });
    plain = "";
  };
  for (const ch of text) {
    if (ch === " ") {
      flush();
      out.push({ text: "·", marker: true });
    } else if (ch === "\t") {
      flush();
      out.push({ text: "→", marker: true });
    } else if (ch === "\n") {
      flush();
      out.push({ text: "↵", marker: true });
      plain = "\n";
    } else if (ch === "\r") {
      flush();
      out.push({ text: "␍", marker: true });
    } else {
      plain += ch;
    }
  }
  flush();
  return out;
}

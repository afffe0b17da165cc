/**
 * The template text as @huggingface/jinja's lexer sees it, with where each character came from.
 * The library reports no source positions, so every position the engine derives is an offset in
 * this text and has to be mapped back to the template the author wrote.
 */
export interface Preprocessed {
  text: string;
  /** map[i] = offset in the original template of text[i]; map[text.length] = original length. */
  map: number[];
}

/** Applies `regex` like String.replace, keeping `keep(match)` = [prefix, suffix] lengths of each match. */
function replaceKeeping(input: Preprocessed, regex: RegExp, keep: (match: RegExpExecArray) => [number, number]): Preprocessed {
  let text = "";
  const map: number[] = [];
  let last = 0;
  regex.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = regex.exec(input.text)) !== null) {
    const start = match.index;
    const whole = match[0];
    if (whole.length === 0) {
      regex.lastIndex++;
      continue;
    }
    const [prefix, suffix] = keep(match);
    text += input.text.slice(last, start + prefix);
    for (let i = last; i < start + prefix; i++) map.push(input.map[i] ?? i);
    const suffixStart = start + whole.length - suffix;
    text += input.text.slice(suffixStart, start + whole.length);
    for (let i = suffixStart; i < start + whole.length; i++) map.push(input.map[i] ?? i);
    last = start + whole.length;
  }
  text += input.text.slice(last);
  for (let i = last; i <= input.text.length; i++) map.push(input.map[i] ?? i);
  return { text, map };
}

/**
 * Mirrors @huggingface/jinja's lexer preprocess() step for step with lstrip_blocks and
 * trim_blocks on (as transformers renders): drops one trailing newline, the indentation before
 * a block tag, the newline after one, and `{% generation %}` tags with their surrounding space.
 */
export function preprocess(template: string): Preprocessed {
  const map: number[] = [];
  for (let i = 0; i <= template.length; i++) map.push(i);
  let current: Preprocessed = { text: template, map };
  if (current.text.endsWith("\n")) {
    current = { text: current.text.slice(0, -1), map: current.map.slice(0, -1) };
  }
  current = replaceKeeping(current, /^[ \t]*({[#%-])/gm, (m) => [0, (m[1] ?? "").length]);
  current = replaceKeeping(current, /([#%-]})\n/g, (m) => [(m[1] ?? "").length, 0]);
  current = replaceKeeping(current, /(\s*){%(-?)\s*(?:end)?generation\s*(-?)%}(\s*)/gs, (m) => [
    m[2] ? 0 : (m[1] ?? "").length,
    m[3] ? 0 : (m[4] ?? "").length,
  ]);
  return current;
}

/** The offset in the original template of `offset` in the preprocessed text (clamped to it). */
export function toOriginal(pre: Preprocessed, offset: number | null): number | null {
  if (offset === null) return null;
  const clamped = Math.max(0, Math.min(offset, pre.map.length - 1));
  return pre.map[clamped] ?? null;
}

import * as jinja from "@huggingface/jinja";
import { isObject, statementNodes, type AstNode, type Program, type Token } from "#app/chat-template/engine/jinja-ast.ts";
import { toOriginal, type Preprocessed } from "#app/chat-template/engine/preprocess.ts";

// @huggingface/jinja reports no source positions, so this module derives them:
// - lexer errors: binary search for the shortest prefix of the preprocessed source that fails
//   the same way (the failing character is its last one);
// - parser errors: the last token the parser read (observed through a Proxy on the token list);
// - runtime errors: the innermost `{{ }}`/`{% %}` tag being evaluated (the interpreter records
//   it as a Failure), narrowed to the failing callee/filter/variable name inside that tag.
// Offsets are found in the preprocessed text and mapped back to the original template.

/** A half-open range of offsets in the preprocessed text. */
export interface Span {
  start: number;
  end: number;
}

/** Where a runtime error was raised: the innermost node evaluated, and the innermost one with a span. */
export interface Failure {
  innermost: AstNode;
  located: AstNode | null;
}

/** Tags that produce a node of their own in a statement list (closing tags and `else` do not). */
const NODE_TAGS = new Set(["set", "if", "elif", "for", "macro", "call", "filter", "break", "continue"]);

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? "")) i++;
  return i;
}

/** Start and end offsets (in the preprocessed text) of every token, or null when the walk loses track. */
export function alignTokens(text: string, tokens: readonly Token[]): { starts: number[]; ends: number[] } | null {
  const starts: number[] = [];
  const ends: number[] = [];
  let c = 0;
  for (const token of tokens) {
    let start: number;
    switch (token.type) {
      case "Text": {
        start = text.indexOf(token.value, c);
        if (start < 0) return null;
        c = start + token.value.length;
        break;
      }
      case "Comment": {
        start = text.indexOf("{#", c);
        if (start < 0) return null;
        const close = text.indexOf("#}", start + 2);
        if (close < 0) return null;
        c = close + 2;
        break;
      }
      case "OpenStatement":
      case "OpenExpression": {
        start = text.indexOf(token.type === "OpenStatement" ? "{%" : "{{", c);
        if (start < 0) return null;
        c = start + 2;
        if (text[c] === "-") c++;
        break;
      }
      case "CloseStatement":
      case "CloseExpression": {
        c = skipSpace(text, c);
        start = c;
        if (text[c] === "-") c++;
        const close = token.type === "CloseStatement" ? "%}" : "}}";
        if (!text.startsWith(close, c)) return null;
        c += 2;
        break;
      }
      case "StringLiteral": {
        c = skipSpace(text, c);
        start = c;
        const quote = text[c];
        if (quote !== "'" && quote !== '"') return null;
        let j = c + 1;
        while (j < text.length && text[j] !== quote) j += text[j] === "\\" ? 2 : 1;
        c = j + 1;
        break;
      }
      default: {
        c = skipSpace(text, c);
        start = c;
        if (!text.startsWith(token.value, c)) return null;
        c += token.value.length;
      }
    }
    starts.push(start);
    ends.push(c);
  }
  return { starts, ends };
}

/**
 * Pairs every node that sits in a statement list with the tag that produced it. The parser
 * emits exactly one node per text run, comment, `{{ }}` and opening `{% %}` tag (`elif`
 * included), in source order, so a pre-order walk lines up with those tags. Empty when they do
 * not line up: positions are then unknown rather than wrong.
 */
export function nodeSpans(program: Program, tokens: readonly Token[], pre: Preprocessed): Map<AstNode, Span> {
  const spans = new Map<AstNode, Span>();
  const aligned = alignTokens(pre.text, tokens);
  if (!aligned) return spans;
  const items: Span[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (!token) break;
    if (token.type === "Text" || token.type === "Comment") {
      items.push({ start: aligned.starts[i] ?? 0, end: aligned.ends[i] ?? 0 });
      i++;
      continue;
    }
    const closeType = token.type === "OpenExpression" ? "CloseExpression" : "CloseStatement";
    let j = i + 1;
    while (j < tokens.length && tokens[j]?.type !== closeType) j++;
    const isNode = token.type === "OpenExpression" || NODE_TAGS.has(tokens[i + 1]?.value ?? "");
    if (isNode) items.push({ start: aligned.starts[i] ?? 0, end: aligned.ends[Math.min(j, tokens.length - 1)] ?? 0 });
    i = j + 1;
  }
  const nodes = statementNodes(program);
  if (nodes.length !== items.length) return spans;
  nodes.forEach((node, index) => {
    const item = items[index];
    if (item) spans.set(node, item);
  });
  return spans;
}

/** Offset (in the preprocessed text) of the character the lexer stopped at with `message`. */
export function locateLexerError(pre: Preprocessed, message: string): number | null {
  if (message === "Unexpected end of input") return pre.text.length;
  const failsTheSameWay = (length: number): boolean => {
    try {
      jinja.tokenize(pre.text.slice(0, length));
      return false;
    } catch (error) {
      return errorMessage(error) === message;
    }
  };
  if (!failsTheSameWay(pre.text.length)) return null;
  let low = 1;
  let high = pre.text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failsTheSameWay(mid)) high = mid;
    else low = mid + 1;
  }
  return Math.max(0, low - 1);
}

/**
 * Offset (in the preprocessed text) of the token the parser failed on; `pastEnd` when it ran
 * out of tokens (an unclosed tag or block).
 */
export function locateParserError(tokens: Token[], pre: Preprocessed): { offset: number | null; pastEnd: boolean } {
  let lastIndex = -1;
  const watched = new Proxy(tokens, {
    get(target, property, receiver) {
      if (typeof property === "string" && /^\d+$/.test(property)) lastIndex = Number(property);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  try {
    jinja.parse(watched);
    return { offset: null, pastEnd: false };
  } catch {
    const aligned = alignTokens(pre.text, tokens);
    if (lastIndex >= tokens.length) return { offset: pre.text.length, pastEnd: true };
    if (!aligned || lastIndex < 0) return { offset: null, pastEnd: false };
    return { offset: aligned.starts[lastIndex] ?? null, pastEnd: false };
  }
}

/** The callee, filter, test or variable name a failing expression node refers to, if any. */
function nameInside(node: AstNode): string | null {
  const record = node as unknown as Record<string, unknown>;
  const nameOf = (value: unknown): string | null => {
    if (!isObject(value)) return null;
    if (value.type === "Identifier" && typeof value.value === "string") return value.value;
    if (value.type === "CallExpression") return nameOf(value.callee);
    if (value.type === "MemberExpression" && value.computed === false) return nameOf(value.property);
    return null;
  };
  switch (node.type) {
    case "CallExpression":
      return nameOf(record.callee);
    case "FilterExpression":
      return nameOf(record.filter);
    case "TestExpression":
      return nameOf(record.test);
    case "Identifier":
    case "MemberExpression":
      return nameOf(node);
    default:
      return null;
  }
}

/** Offset in the original template of a runtime error: the failing name inside its tag, else the tag. */
export function locateRuntimeError(pre: Preprocessed, spans: Map<AstNode, Span>, failure: Failure | undefined): number | null {
  if (!failure?.located) return null;
  const span = spans.get(failure.located);
  if (!span) return null;
  const name = nameInside(failure.innermost);
  if (name) {
    const inTag = pre.text.slice(span.start, span.end);
    const match = new RegExp(`(^|[^\\w])${name.replace(/[^\w]/g, "")}(?![\\w])`).exec(inTag);
    if (match) return toOriginal(pre, span.start + match.index + (match[1] ?? "").length);
  }
  return toOriginal(pre, span.start);
}

/** 1-based line and column of an offset in the template. */
export function lineColumn(template: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < template.length; i++) {
    if (template[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The lines up to `line` (two before it at most) with a caret under `column`. */
export function excerpt(template: string, line: number, column: number): string {
  const lines = template.split("\n");
  const width = String(line).length;
  const out: string[] = [];
  const maxChars = 160;
  const target = lines[line - 1] ?? "";
  // Long one-line templates are common; show the window around the column.
  const from = target.length > maxChars ? Math.max(0, Math.min(column - 1 - maxChars / 2, target.length - maxChars)) : 0;
  const clip = (text: string) => (text.length > maxChars ? text.slice(from, from + maxChars) : text);
  for (let n = Math.max(1, line - 2); n <= line; n++) {
    out.push(`${String(n).padStart(width)} | ${clip(lines[n - 1] ?? "")}`);
  }
  out.push(`${" ".repeat(width)} | ${" ".repeat(Math.max(0, column - 1 - from))}^`);
  return out.join("\n");
}

/** Line, column and excerpt of an offset in the template; all null when the offset is unknown. */
export function positionAt(
  template: string,
  offset: number | null,
): { line: number; column: number; excerpt: string } | { line: null; column: null; excerpt: null } {
  if (offset === null) return { line: null, column: null, excerpt: null };
  const { line, column } = lineColumn(template, offset);
  return { line, column, excerpt: excerpt(template, line, column) };
}

import type * as Jinja from "@huggingface/jinja";
import type { RenderChatTemplateInput, RenderChatTemplateResult, RenderErrorKind } from "#app/chat-template/render.ts";

export type JinjaModule = typeof Jinja;

export interface ChatTemplateEngine {
  render(input: RenderChatTemplateInput): RenderChatTemplateResult;
}

/**
 * Builds the chat-template renderer around an @huggingface/jinja module.
 *
 * Everything the engine needs lives inside this one function and it touches nothing at module
 * scope except erased types: the sandbox sends `createChatTemplateEngine.toString()` to a
 * worker thread (`new Worker(code, { eval: true })`), which is the only way to ship the same
 * code to a worker that works both from TypeScript sources under vitest/tsx and from the
 * bundled Vite SSR build, where no separate worker file exists. For the same reason the body
 * avoids syntax that bundlers lower with injected helpers (class fields, private members).
 *
 * @huggingface/jinja reports no source positions, so positions are derived here:
 * - lexer errors: binary search for the shortest prefix of the preprocessed source that fails
 *   the same way (the failing character is its last one);
 * - parser errors: the last token the parser read (observed through a Proxy on the token list);
 * - runtime errors: the innermost `{{ }}`/`{% %}` tag being evaluated (an interpreter subclass
 *   records it), narrowed to the failing callee/filter/variable name inside that tag.
 * Offsets in the preprocessed source (after trim_blocks/lstrip_blocks/generation-tag removal)
 * are mapped back to the original template.
 */
export function createChatTemplateEngine(jinja: JinjaModule): ChatTemplateEngine {
  type Program = ReturnType<JinjaModule["parse"]>;
  type Token = ReturnType<JinjaModule["tokenize"]>[number];
  type RuntimeValue = ReturnType<Jinja.Interpreter["run"]>;
  type Node = Parameters<Jinja.Interpreter["evaluate"]>[0];
  type AstNode = NonNullable<Node>;

  interface Span {
    start: number;
    end: number;
  }
  interface Preprocessed {
    text: string;
    /** map[i] = offset in the original template of text[i]; map[text.length] = original length. */
    map: number[];
  }
  interface Compiled {
    program: Program;
    pre: Preprocessed;
    /** Source span (in the preprocessed text) of each statement/expression-tag node. */
    spans: Map<AstNode, Span>;
  }
  interface Failure {
    innermost: AstNode;
    located: AstNode | null;
  }
  interface Located {
    offset: number | null;
    message: string;
  }

  const PYTHON_MAX_RANGE = 100000;
  const DEFAULT_MAX_STEPS = 50_000_000;
  const NODE_TAGS = new Set(["set", "if", "elif", "for", "macro", "call", "filter", "break", "continue"]);
  const BLOCK_CHILDREN: Record<string, readonly string[]> = {
    If: ["body", "alternate"],
    For: ["body", "defaultBlock"],
    Set: ["body"],
    Macro: ["body"],
    CallStatement: ["body"],
    FilterStatement: ["body"],
  };
  const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
  const MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ];

  const compiledCache = new Map<string, Compiled>();
  const COMPILED_CACHE_SIZE = 64;

  class TemplateError extends Error {
    declare readonly kind: RenderErrorKind;
    declare readonly offset: number | null;
    constructor(message: string, kind: RenderErrorKind, offset: number | null) {
      super(message);
      Object.defineProperty(this, "kind", { value: kind });
      Object.defineProperty(this, "offset", { value: offset });
    }
  }

  function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null;
  }

  // ---------------------------------------------------------------- preprocessing with offsets

  /** Applies `regex` like String.replace, keeping `keep(match)` = [prefix, suffix] lengths of each match. */
  function replaceKeeping(
    input: Preprocessed,
    regex: RegExp,
    keep: (match: RegExpExecArray) => [number, number],
  ): Preprocessed {
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

  // Mirrors @huggingface/jinja's lexer preprocess() step for step, recording where each character came from.
  function preprocess(template: string): Preprocessed {
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

  // ---------------------------------------------------------------- token positions

  function skipSpace(text: string, from: number): number {
    let i = from;
    while (i < text.length && /\s/.test(text[i] ?? "")) i++;
    return i;
  }

  /** Start offset (in the preprocessed text) of every token, or null when the walk loses track. */
  function alignTokens(text: string, tokens: readonly Token[]): { starts: number[]; ends: number[] } | null {
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

  // ---------------------------------------------------------------- AST node spans

  function childLists(node: AstNode): AstNode[][] {
    const names = BLOCK_CHILDREN[node.type];
    if (!names) return [];
    const lists: AstNode[][] = [];
    const record: Record<string, unknown> = node as unknown as Record<string, unknown>;
    for (const name of names) {
      const value = record[name];
      if (Array.isArray(value)) lists.push(value as AstNode[]);
    }
    return lists;
  }

  /**
   * Pairs every node that sits in a statement list with the tag that produced it. The parser
   * emits exactly one node per text run, comment, `{{ }}` and opening `{% %}` tag (`elif`
   * included), in source order, so a pre-order walk lines up with those tags.
   */
  function nodeSpans(program: Program, tokens: readonly Token[], pre: Preprocessed): Map<AstNode, Span> {
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
    const nodes: AstNode[] = [];
    const walk = (list: readonly AstNode[]) => {
      for (const node of list) {
        nodes.push(node);
        for (const children of childLists(node)) walk(children);
      }
    };
    walk(program.body as AstNode[]);
    if (nodes.length !== items.length) return spans;
    nodes.forEach((node, index) => {
      const item = items[index];
      if (item) spans.set(node, item);
    });
    return spans;
  }

  // ---------------------------------------------------------------- compile (lex + parse)

  function errorMessage(error: unknown): string {
    if (error instanceof Error) return error.message;
    return String(error);
  }

  function locateLexerError(pre: Preprocessed, message: string): number | null {
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

  function locateParserError(tokens: Token[], pre: Preprocessed): { offset: number | null; pastEnd: boolean } {
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

  function compile(template: string): Compiled {
    const cached = compiledCache.get(template);
    if (cached) {
      compiledCache.delete(template);
      compiledCache.set(template, cached);
      return cached;
    }
    const pre = preprocess(template);
    let tokens: Token[];
    try {
      tokens = jinja.tokenize(template, { lstrip_blocks: true, trim_blocks: true });
    } catch (error) {
      const message = errorMessage(error);
      throw new TemplateError(message, "syntax", toOriginal(pre, locateLexerError(pre, message)));
    }
    let program: Program;
    try {
      program = jinja.parse(tokens);
    } catch (error) {
      const located = locateParserError(tokens, pre);
      const message =
        located.pastEnd || error instanceof TypeError
          ? "Unexpected end of template: a tag, block or expression is not closed"
          : errorMessage(error);
      throw new TemplateError(message, "syntax", toOriginal(pre, located.offset));
    }
    const compiled: Compiled = { program, pre, spans: nodeSpans(program, tokens, pre) };
    compiledCache.set(template, compiled);
    if (compiledCache.size > COMPILED_CACHE_SIZE) {
      const oldest = compiledCache.keys().next();
      if (!oldest.done) compiledCache.delete(oldest.value);
    }
    return compiled;
  }

  function toOriginal(pre: Preprocessed, offset: number | null): number | null {
    if (offset === null) return null;
    const clamped = Math.max(0, Math.min(offset, pre.map.length - 1));
    return pre.map[clamped] ?? null;
  }

  // ---------------------------------------------------------------- globals (as transformers defines them)

  function pad(value: number, width: number, fill = "0"): string {
    return String(value).padStart(width, fill);
  }

  /** Python's datetime.strftime in the C locale (what transformers' strftime_now calls). */
  function strftime(date: Date, format: string): string {
    return format.replace(/%(-?)([a-zA-Z%])/g, (whole: string, noPad: string, code: string) => {
      const p = (value: number, width: number) => (noPad ? String(value) : pad(value, width));
      const hours12 = date.getHours() % 12 === 0 ? 12 : date.getHours() % 12;
      const startOfYear = new Date(date.getFullYear(), 0, 1);
      const dayOfYear = Math.round((date.getTime() - startOfYear.getTime()) / 86_400_000) + 1;
      switch (code) {
        case "a":
          return (WEEKDAYS[date.getDay()] ?? "").slice(0, 3);
        case "A":
          return WEEKDAYS[date.getDay()] ?? "";
        case "b":
        case "h":
          return (MONTHS[date.getMonth()] ?? "").slice(0, 3);
        case "B":
          return MONTHS[date.getMonth()] ?? "";
        case "d":
          return p(date.getDate(), 2);
        case "e":
          return noPad ? String(date.getDate()) : pad(date.getDate(), 2, " ");
        case "m":
          return p(date.getMonth() + 1, 2);
        case "y":
          return p(date.getFullYear() % 100, 2);
        case "Y":
          return String(date.getFullYear());
        case "H":
          return p(date.getHours(), 2);
        case "I":
          return p(hours12, 2);
        case "M":
          return p(date.getMinutes(), 2);
        case "S":
          return p(date.getSeconds(), 2);
        case "p":
          return date.getHours() < 12 ? "AM" : "PM";
        case "j":
          return p(dayOfYear, 3);
        case "F":
          return `${date.getFullYear()}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
        case "T":
          return `${pad(date.getHours(), 2)}:${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}`;
        case "%":
          return "%";
        default:
          return whole;
      }
    });
  }

  /** Jinja's sandbox replaces range() with safe_range, which refuses more than MAX_RANGE items. */
  function safeRange(...args: unknown[]): number[] {
    const numbers = args.map((value) => {
      if (typeof value !== "number" || !Number.isInteger(value)) {
        throw new Error(`range() arguments must be integers, got ${typeof value}`);
      }
      return value;
    });
    let [start = 0, stop = 0, step = 1] = numbers;
    if (numbers.length === 1) {
      stop = start;
      start = 0;
    }
    if (step === 0) throw new Error("range() arg 3 must not be zero");
    const count = step > 0 ? Math.ceil((stop - start) / step) : Math.ceil((start - stop) / -step);
    if (count > PYTHON_MAX_RANGE) {
      throw new Error(`Range too big. The sandbox blocks ranges larger than MAX_RANGE (${PYTHON_MAX_RANGE}).`);
    }
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push(start + i * step);
    return out;
  }

  // ---------------------------------------------------------------- positions and excerpts

  function lineColumn(template: string, offset: number): { line: number; column: number } {
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

  function excerpt(template: string, line: number, column: number): string {
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

  function locateRuntimeError(compiled: Compiled, failure: Failure | undefined): number | null {
    if (!failure?.located) return null;
    const span = compiled.spans.get(failure.located);
    if (!span) return null;
    const name = nameInside(failure.innermost);
    if (name) {
      const inTag = compiled.pre.text.slice(span.start, span.end);
      const match = new RegExp(`(^|[^\\w])${name.replace(/[^\w]/g, "")}(?![\\w])`).exec(inTag);
      if (match) return toOriginal(compiled.pre, span.start + match.index + (match[1] ?? "").length);
    }
    return toOriginal(compiled.pre, span.start);
  }

  // ---------------------------------------------------------------- rendering

  function render(input: RenderChatTemplateInput): RenderChatTemplateResult {
    const template = input.template;
    const fail = (message: string, kind: RenderErrorKind, offset: number | null): RenderChatTemplateResult => {
      if (offset === null) return { ok: false, error: { message, kind, line: null, column: null, excerpt: null } };
      const { line, column } = lineColumn(template, offset);
      return { ok: false, error: { message, kind, line, column, excerpt: excerpt(template, line, column) } };
    };

    let compiled: Compiled;
    try {
      compiled = compile(template);
    } catch (error) {
      if (error instanceof TemplateError) return fail(error.message, error.kind, error.offset);
      return fail(errorMessage(error), "syntax", null);
    }

    const raised = new WeakSet<object>();
    const failures = new WeakMap<object, Failure>();
    const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
    const now = input.now;
    const spans = compiled.spans;

    const env = new jinja.Environment();
    env.set("false", false);
    env.set("true", true);
    env.set("none", null);
    env.set("True", true);
    env.set("False", false);
    env.set("None", null);
    env.set("raise_exception", (message: unknown) => {
      const error = new Error(String(message));
      raised.add(error);
      throw error;
    });
    env.set("range", safeRange);
    env.set("strftime_now", (format: unknown) => strftime(now ? new Date(now.getTime()) : new Date(), String(format)));

    // transformers: render(messages=…, tools=…, documents=…, add_generation_prompt=…, **special_tokens, **kwargs)
    const core: Record<string, unknown> = {
      messages: input.messages,
      tools: input.tools ?? null,
      documents: input.documents ?? null,
      add_generation_prompt: input.addGenerationPrompt ?? false,
    };
    if (input.bosToken !== undefined && input.bosToken !== null) core.bos_token = input.bosToken;
    if (input.eosToken !== undefined && input.eosToken !== null) core.eos_token = input.eosToken;
    const variables: Record<string, unknown> = { ...(input.extraContext ?? {}), ...core };
    for (const [key, value] of Object.entries(variables)) {
      if (["false", "true", "none", "True", "False", "None", "raise_exception", "range", "strftime_now"].includes(key)) {
        continue;
      }
      env.set(key, value);
    }

    class TrackingInterpreter extends jinja.Interpreter {
      declare steps: number;
      override evaluate(statement: Node, environment: Jinja.Environment): RuntimeValue {
        this.steps = (this.steps ?? 0) + 1;
        if (this.steps > maxSteps) {
          throw new TemplateError(`Rendering stopped after ${maxSteps} evaluation steps`, "limit", null);
        }
        try {
          return super.evaluate(statement, environment);
        } catch (error) {
          if (statement && isObject(error)) {
            let failure = failures.get(error);
            if (!failure) {
              failure = { innermost: statement, located: null };
              failures.set(error, failure);
            }
            if (!failure.located && spans.has(statement)) failure.located = statement;
          }
          throw error;
        }
      }
    }

    try {
      const result = new TrackingInterpreter(env).run(compiled.program);
      const text = typeof result.value === "string" ? result.value : String(result.value);
      return { ok: true, text };
    } catch (error) {
      const offset = isObject(error) ? locateRuntimeError(compiled, failures.get(error)) : null;
      if (error instanceof TemplateError) return fail(error.message, error.kind, offset);
      if (error instanceof RangeError && /call stack/i.test(error.message)) {
        return fail("Maximum recursion depth exceeded while rendering the template", "runtime", offset);
      }
      const kind: RenderErrorKind = isObject(error) && raised.has(error) ? "raised" : "runtime";
      return fail(errorMessage(error), kind, offset);
    }
  }

  return { render };
}

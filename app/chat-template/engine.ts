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

  // ---------------------------------------------------------------- Python's str() for `{{ }}` output

  const STATEMENT_TYPES = new Set(["If", "For", "Set", "Macro", "CallStatement", "FilterStatement", "Break", "Continue", "Comment"]);
  const outputNodeCache = new WeakMap<Program, Set<AstNode>>();

  /** The `{{ … }}` expressions of a program: nodes in statement lists that are not statements. */
  function outputNodes(program: Program): Set<AstNode> {
    const cached = outputNodeCache.get(program);
    if (cached) return cached;
    const out = new Set<AstNode>();
    const walk = (list: readonly AstNode[]) => {
      for (const node of list) {
        if (!STATEMENT_TYPES.has(node.type) && node.type !== "StringLiteral") out.add(node);
        for (const children of childLists(node)) walk(children);
      }
    };
    walk(program.body as AstNode[]);
    outputNodeCache.set(program, out);
    return out;
  }

  function pyStringRepr(value: string): string {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    let out = quote;
    for (const char of value) {
      const code = char.codePointAt(0) ?? 0;
      if (char === "\\") out += "\\\\";
      else if (char === quote) out += `\\${quote}`;
      else if (char === "\n") out += "\\n";
      else if (char === "\r") out += "\\r";
      else if (char === "\t") out += "\\t";
      else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
      else out += char;
    }
    return out + quote;
  }

  function pyNumber(value: number, isFloat: boolean): string {
    if (!isFloat) return String(value);
    if (Number.isNaN(value)) return "nan";
    if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
    if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
    return String(value).replace(/e([+-])(\d)$/, "e$10$2");
  }

  /** repr() of a runtime value, as Python prints containers and their items; null when unknown. */
  function pyRepr(value: RuntimeValue, depth = 0): string | null {
    if (depth > 100) return null;
    const raw: unknown = value.value;
    switch (value.type) {
      case "StringValue":
        return pyStringRepr(String(raw));
      case "IntegerValue":
        return pyNumber(Number(raw), false);
      case "FloatValue":
        return pyNumber(Number(raw), true);
      case "BooleanValue":
        return raw ? "True" : "False";
      case "NullValue":
        return "None";
      case "ArrayValue":
      case "TupleValue": {
        if (!Array.isArray(raw)) return null;
        const items: string[] = [];
        for (const item of raw as RuntimeValue[]) {
          const repr = pyRepr(item, depth + 1);
          if (repr === null) return null;
          items.push(repr);
        }
        if (value.type === "TupleValue") return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
        return `[${items.join(", ")}]`;
      }
      case "ObjectValue": {
        if (!(raw instanceof Map)) return null;
        const items: string[] = [];
        for (const [key, item] of raw as Map<string, RuntimeValue>) {
          const repr = pyRepr(item, depth + 1);
          if (repr === null) return null;
          items.push(`${pyStringRepr(key)}: ${repr}`);
        }
        return `{${items.join(", ")}}`;
      }
      default:
        return null;
    }
  }

  function filterName(node: AstNode): string | null {
    if (node.type !== "FilterExpression") return null;
    const filter: unknown = (node as unknown as Record<string, unknown>).filter;
    if (!isObject(filter)) return null;
    if (filter.type === "Identifier" && typeof filter.value === "string") return filter.value;
    const callee: unknown = filter.callee;
    if (filter.type === "CallExpression" && isObject(callee) && typeof callee.value === "string") return callee.value;
    return null;
  }

  // Filters that iterate their input: in Python a string input is iterated character by character.
  const ITERATING_FILTERS = new Set(["selectattr", "rejectattr", "select", "reject", "map", "list"]);

  const iterableNodeCache = new WeakMap<Program, Set<AstNode>>();

  /** The expressions for-loops iterate over (the left side of `for x in xs if …` included). */
  function forIterables(program: Program): Set<AstNode> {
    const cached = iterableNodeCache.get(program);
    if (cached) return cached;
    const out = new Set<AstNode>();
    const walk = (list: readonly AstNode[]) => {
      for (const node of list) {
        if (node.type === "For") {
          const iterable: unknown = (node as unknown as Record<string, unknown>).iterable;
          if (isObject(iterable)) {
            const target = iterable.type === "SelectExpression" ? iterable.lhs : iterable;
            if (isObject(target)) out.add(target as unknown as AstNode);
          }
        }
        for (const children of childLists(node)) walk(children);
      }
    };
    walk(program.body as AstNode[]);
    iterableNodeCache.set(program, out);
    return out;
  }

  /** What Python's str() prints for a `{{ }}` value where @huggingface/jinja prints JSON-ish text. */
  function pyStr(value: RuntimeValue): string | null {
    switch (value.type) {
      case "BooleanValue":
        return value.value ? "True" : "False";
      case "NullValue":
        return "None";
      case "FloatValue":
        return pyNumber(Number(value.value), true);
      case "ArrayValue":
      case "TupleValue":
      case "ObjectValue":
        return pyRepr(value);
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------- rendering

  // The runtime value classes are not exported; take them from values the library builds.
  const probe = new jinja.Environment();
  const StringValue = probe.set("s", "").constructor as new (value: string) => RuntimeValue;
  const ObjectValue = probe.set("o", {}).constructor as new (value: Map<string, RuntimeValue>) => RuntimeValue;
  const ArrayValue = probe.set("a", []).constructor as new (value: RuntimeValue[]) => RuntimeValue;
  const FunctionValue = probe.set("f", () => null).constructor as new (
    fn: (args: RuntimeValue[], scope: Jinja.Environment) => RuntimeValue,
  ) => RuntimeValue;
  const characters = (text: string) => new ArrayValue(Array.from(text, (char) => new StringValue(char)));

  interface RenderState {
    steps: number;
    maxSteps: number;
    outputs: Set<AstNode>;
    iterables: Set<AstNode>;
    spans: Map<AstNode, Span>;
    failures: WeakMap<object, Failure>;
  }

  // applyFilter is private in the typings but is the library's own filter dispatch (pinned version).
  type FilterApplier = { applyFilter(operand: RuntimeValue, filter: unknown, environment: Jinja.Environment): RuntimeValue };

  /**
   * The library's interpreter plus: the failing node of an error (for positions), a step budget,
   * and the few places where Python's semantics differ and the fix is local (str() of values,
   * iterating a string).
   */
  class TrackingInterpreter extends jinja.Interpreter {
    declare state: RenderState;
    constructor(env: Jinja.Environment, state: RenderState) {
      super(env);
      Object.defineProperty(this, "state", { value: state });
    }

    override evaluate(statement: Node, environment: Jinja.Environment): RuntimeValue {
      const state = this.state;
      const { outputs, iterables, spans, failures } = state;
      state.steps++;
      if (state.steps > state.maxSteps) {
        throw new TemplateError(`Rendering stopped after ${state.maxSteps} evaluation steps`, "limit", null);
      }
      try {
        let value: RuntimeValue;
        const filter = statement ? filterName(statement) : null;
        if (statement && filter === "string") {
          // `x | string` is Python's str(x): repr-style containers, True/False/None.
          const operand = this.evaluate((statement as unknown as { operand: Node }).operand, environment);
          const printed = pyStr(operand);
          value =
            printed !== null
              ? new StringValue(printed)
              : new StringValue(operand.type === "UndefinedValue" ? "" : operand.toString());
        } else if (statement && filter !== null && ITERATING_FILTERS.has(filter)) {
          const node = statement as unknown as { operand: Node; filter: unknown };
          const operand = this.evaluate(node.operand, environment);
          const input = operand.type === "StringValue" ? characters(String(operand.value)) : operand;
          value = (this as unknown as FilterApplier).applyFilter(input, node.filter, environment);
        } else {
          value = super.evaluate(statement, environment);
          if (statement && iterables.has(statement) && value.type === "StringValue") {
            value = characters(String(value.value));
          }
        }
        if (statement && outputs.has(statement)) {
          const printed = pyStr(value);
          if (printed !== null) value = new StringValue(printed);
        }
        // A for loop walks its iterable without calling evaluate per item, and strings can grow
        // without many steps; charging sizes keeps the cap proportional to the real work.
        const raw: unknown = value.value;
        if (Array.isArray(raw)) state.steps += raw.length;
        else if (typeof raw === "string") state.steps += raw.length >> 8;
        return value;
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
    const outputs = outputNodes(compiled.program);
    const iterables = forIterables(compiled.program);

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
    // Jinja's default global dict(**kwargs); the library has none.
    env.setVariable(
      "dict",
      new FunctionValue((args) => {
        const entries = new Map<string, RuntimeValue>();
        for (const arg of args) {
          const raw: unknown = arg.value;
          if (!(raw instanceof Map)) throw new Error(`dict() expects a mapping or keyword arguments, got ${arg.type}`);
          for (const [key, value] of raw as Map<string, RuntimeValue>) entries.set(key, value);
        }
        return new ObjectValue(entries);
      }),
    );
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

    try {
      const state: RenderState = { steps: 0, maxSteps, outputs, iterables, spans, failures };
      const result = new TrackingInterpreter(env, state).run(compiled.program);
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

import * as jinja from "@huggingface/jinja";
import type { RenderChatTemplateInput, RenderChatTemplateResult, RenderErrorKind } from "#app/chat-template/render-types.ts";
import { isObject, statementNodes, type AstNode, type Node, type Program, type RuntimeValue, type Token } from "#app/chat-template/engine/jinja-ast.ts";
import {
  errorMessage,
  locateLexerError,
  locateParserError,
  locateRuntimeError,
  nodeSpans,
  positionAt,
  type Failure,
  type Span,
} from "#app/chat-template/engine/positions.ts";
import { preprocess, toOriginal, type Preprocessed } from "#app/chat-template/engine/preprocess.ts";
import { pyStr, safeRange, strftime } from "#app/chat-template/engine/python.ts";
import { Lru } from "#app/utils/lru.ts";

// The chat-template renderer: @huggingface/jinja's lexer, parser and interpreter, with the
// globals transformers defines, Python's str() where the library differs, a step budget, and
// error positions (positions.ts) for every failure.

const DEFAULT_MAX_STEPS = 50_000_000;
const COMPILED_CACHE_SIZE = 64;

interface Compiled {
  program: Program;
  pre: Preprocessed;
  /** Source span (in the preprocessed text) of each statement/expression-tag node. */
  spans: Map<AstNode, Span>;
}

class TemplateError extends Error {
  constructor(
    message: string,
    readonly kind: RenderErrorKind,
    readonly offset: number | null,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- compile (lex + parse)

const compiledCache = new Lru<Compiled>({ maxEntries: COMPILED_CACHE_SIZE });

function compile(template: string): Compiled {
  const cached = compiledCache.get(template);
  if (cached) return cached;
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
  return compiled;
}

// ---------------------------------------------------------------- nodes that need Python's semantics

const STATEMENT_TYPES = new Set(["If", "For", "Set", "Macro", "CallStatement", "FilterStatement", "Break", "Continue", "Comment"]);
const outputNodeCache = new WeakMap<Program, Set<AstNode>>();

/** The `{{ … }}` expressions of a program: nodes in statement lists that are not statements. */
function outputNodes(program: Program): Set<AstNode> {
  const cached = outputNodeCache.get(program);
  if (cached) return cached;
  const out = new Set(statementNodes(program).filter((node) => !STATEMENT_TYPES.has(node.type) && node.type !== "StringLiteral"));
  outputNodeCache.set(program, out);
  return out;
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
  for (const node of statementNodes(program)) {
    if (node.type !== "For") continue;
    const iterable: unknown = (node as unknown as Record<string, unknown>).iterable;
    if (!isObject(iterable)) continue;
    const target = iterable.type === "SelectExpression" ? iterable.lhs : iterable;
    if (isObject(target)) out.add(target as unknown as AstNode);
  }
  iterableNodeCache.set(program, out);
  return out;
}

// ---------------------------------------------------------------- the interpreter

// The runtime value classes are not exported; take them from values the library builds.
const probe = new jinja.Environment();
const StringValue = probe.set("s", "").constructor as new (value: string) => RuntimeValue;
const ObjectValue = probe.set("o", {}).constructor as new (value: Map<string, RuntimeValue>) => RuntimeValue;
const ArrayValue = probe.set("a", []).constructor as new (value: RuntimeValue[]) => RuntimeValue;
const FunctionValue = probe.set("f", () => null).constructor as new (
  fn: (args: RuntimeValue[], scope: jinja.Environment) => RuntimeValue,
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
type FilterApplier = { applyFilter(operand: RuntimeValue, filter: unknown, environment: jinja.Environment): RuntimeValue };

/**
 * The library's interpreter plus: the failing node of an error (for positions), a step budget,
 * and the few places where Python's semantics differ and the fix is local (str() of values,
 * iterating a string).
 */
class TrackingInterpreter extends jinja.Interpreter {
  constructor(
    env: jinja.Environment,
    private readonly state: RenderState,
  ) {
    super(env);
  }

  override evaluate(statement: Node, environment: jinja.Environment): RuntimeValue {
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
          printed !== null ? new StringValue(printed) : new StringValue(operand.type === "UndefinedValue" ? "" : operand.toString());
      } else if (statement && filter !== null && ITERATING_FILTERS.has(filter)) {
        const node = statement as unknown as { operand: Node; filter: unknown };
        const operand = this.evaluate(node.operand, environment);
        const input = operand.type === "StringValue" && typeof operand.value === "string" ? characters(operand.value) : operand;
        value = (this as unknown as FilterApplier).applyFilter(input, node.filter, environment);
      } else {
        value = super.evaluate(statement, environment);
        if (statement && iterables.has(statement) && value.type === "StringValue" && typeof value.value === "string") {
          value = characters(value.value);
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

const RESERVED_GLOBALS = new Set(["false", "true", "none", "True", "False", "None", "raise_exception", "range", "strftime_now"]);

/**
 * Renders a chat template the way transformers' apply_chat_template does, on the calling
 * thread. Every failure comes back as a result with its kind and, where known, its position.
 */
export function renderTemplate(input: RenderChatTemplateInput): RenderChatTemplateResult {
  const template = input.template;
  const fail = (message: string, kind: RenderErrorKind, offset: number | null): RenderChatTemplateResult => ({
    ok: false,
    error: { message, kind, ...positionAt(template, offset) },
  });

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
    if (RESERVED_GLOBALS.has(key)) continue;
    env.set(key, value);
  }

  try {
    const state: RenderState = {
      steps: 0,
      maxSteps,
      outputs: outputNodes(compiled.program),
      iterables: forIterables(compiled.program),
      spans: compiled.spans,
      failures,
    };
    const result = new TrackingInterpreter(env, state).run(compiled.program);
    const raw: unknown = result.value;
    const text = typeof raw === "string" ? raw : String(raw);
    return { ok: true, text };
  } catch (error) {
    const offset = isObject(error) ? locateRuntimeError(compiled.pre, compiled.spans, failures.get(error)) : null;
    if (error instanceof TemplateError) return fail(error.message, error.kind, offset);
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return fail("Maximum recursion depth exceeded while rendering the template", "runtime", offset);
    }
    const kind: RenderErrorKind = isObject(error) && raised.has(error) ? "raised" : "runtime";
    return fail(errorMessage(error), kind, offset);
  }
}

/**
 * What a JavaScript snippet calls that does not exist: each call is resolved against the pinned
 * libraries as installed (@huggingface/inference 3.13.1, openai 6.9.0, Node's own modules), not
 * against a list written by hand, so a method a library dropped (`inference.conversational`) or an
 * object the snippet never imports (`fs` used without `import fs`) is reported.
 *
 * Read with TypeScript's parser: imports, `new X(...)` clients, and every call whose callee is a
 * name or a chain of property names on one (`client.chat.completions.create(...)`).
 */
import { builtinModules, createRequire } from "node:module";
import * as hfInference from "@huggingface/inference";
import * as openai from "openai";
import ts from "typescript";

type Namespace = Readonly<Record<string, unknown>>;

const PINNED: Readonly<Record<string, Namespace>> = {
  "@huggingface/inference": hfInference,
  openai,
};

const require = createRequire(import.meta.url);

function moduleNamespace(specifier: string): Namespace | null {
  const pinned = PINNED[specifier];
  if (pinned !== undefined) return pinned;
  const bare = specifier.replace(/^node:/, "");
  if (builtinModules.includes(bare)) return { ...(require(bare) as Namespace), default: require(bare) as unknown };
  return null;
}

/** Arguments that let each client class be built offline, only to look at its methods. */
const CONSTRUCTOR_ARGS: Readonly<Record<string, readonly unknown[]>> = {
  InferenceClient: ["hf_test"],
  HfInference: ["hf_test"],
  OpenAI: [{ apiKey: "test", baseURL: "http://127.0.0.1:9" }],
};

type Binding = { kind: "value"; value: unknown; label: string } | { kind: "local" };

function get(value: unknown, key: string): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** Names a declaration binds (destructuring included). */
function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : boundNames(e.name)));
}

/** `a.b.c` as ["a", "b", "c"]; null when the chain does not start at a plain name. */
function chain(expr: ts.Expression): string[] | null {
  if (ts.isIdentifier(expr)) return [expr.text];
  if (ts.isPropertyAccessExpression(expr)) {
    const head = chain(expr.expression);
    return head === null ? null : [...head, expr.name.text];
  }
  return null;
}

/**
 * Every call in `code` that cannot work with the pinned libraries, as a readable line; empty when
 * each one resolves to a function. Throws when the code does not parse.
 */
export function missingCalls(code: string): string[] {
  const syntax = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).diagnostics ?? [];
  const first = syntax[0];
  if (first !== undefined) throw new Error(`snippet does not parse: ${ts.flattenDiagnosticMessageText(first.messageText, "\n")}`);
  const file = ts.createSourceFile("snippet.mts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);

  const problems: string[] = [];
  const bindings = new Map<string, Binding>();
  const newExpressions: Array<{ name: string; expr: ts.NewExpression }> = [];
  const calls: ts.CallExpression[] = [];

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      const ns = moduleNamespace(specifier);
      if (ns === null) problems.push(`imports "${specifier}", which is neither a pinned library nor a Node module`);
      const clause = node.importClause;
      if (clause?.name) bindings.set(clause.name.text, ns ? { kind: "value", value: ns["default"], label: `${specifier} default export` } : { kind: "local" });
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) bindings.set(named.name.text, ns ? { kind: "value", value: ns, label: specifier } : { kind: "local" });
      if (named && ts.isNamedImports(named)) {
        for (const el of named.elements) {
          const exported = (el.propertyName ?? el.name).text;
          if (ns && !(exported in ns)) problems.push(`imports { ${exported} } from "${specifier}", which does not export it`);
          bindings.set(el.name.text, ns && exported in ns ? { kind: "value", value: ns[exported], label: `${exported} (${specifier})` } : { kind: "local" });
        }
      }
    } else if (ts.isVariableDeclaration(node)) {
      for (const n of boundNames(node.name)) bindings.set(n, { kind: "local" });
      let init = node.initializer;
      while (init && (ts.isAwaitExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
      if (init && ts.isNewExpression(init) && ts.isIdentifier(node.name)) newExpressions.push({ name: node.name.text, expr: init });
    } else if (ts.isFunctionDeclaration(node) && node.name) {
      bindings.set(node.name.text, { kind: "local" });
    } else if (ts.isParameter(node)) {
      for (const n of boundNames(node.name)) bindings.set(n, { kind: "local" });
    } else if (ts.isCallExpression(node)) {
      calls.push(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);

  // Clients built with `new`: the instance of the pinned class, so its methods can be looked up.
  for (const { name, expr } of newExpressions) {
    const path = chain(expr.expression);
    const root = path?.[0];
    const binding = root === undefined ? undefined : bindings.get(root);
    if (path === null || root === undefined) continue;
    if (binding === undefined && !(root in globalThis)) {
      problems.push(`new ${path.join(".")}(): ${root} is not defined`);
      continue;
    }
    if (binding?.kind !== "value") continue;
    const Ctor = path.slice(1).reduce<unknown>((v, k) => get(v, k), binding.value);
    const className = path[path.length - 1] ?? root;
    if (typeof Ctor !== "function") {
      problems.push(`new ${path.join(".")}(): not a class of ${binding.label}`);
      continue;
    }
    const instance: unknown = Reflect.construct(Ctor, [...(CONSTRUCTOR_ARGS[className] ?? [])]);
    bindings.set(name, { kind: "value", value: instance, label: `new ${className}()` });
  }

  for (const call of calls) {
    const path = chain(call.expression);
    const root = path?.[0];
    if (path === null || root === undefined) continue;
    const binding = bindings.get(root);
    if (binding === undefined) {
      if (!(root in globalThis)) problems.push(`${path.join(".")}(): ${root} is not defined (not imported or declared)`);
      continue;
    }
    if (binding.kind === "local") continue;
    const target = path.slice(1).reduce<unknown>((v, k) => get(v, k), binding.value);
    if (typeof target !== "function") problems.push(`${path.join(".")}(): ${path.slice(1).join(".") || root} is not a function of ${binding.label}`);
  }
  return problems;
}

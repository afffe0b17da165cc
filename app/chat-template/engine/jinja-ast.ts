import type * as Jinja from "@huggingface/jinja";

/** The parsed template, as @huggingface/jinja's parser returns it. */
export type Program = ReturnType<typeof Jinja.parse>;
export type Token = ReturnType<typeof Jinja.tokenize>[number];
export type RuntimeValue = ReturnType<Jinja.Interpreter["run"]>;
export type Node = Parameters<Jinja.Interpreter["evaluate"]>[0];
export type AstNode = NonNullable<Node>;

/** The statement lists nested in each block node, in source order. */
const BLOCK_CHILDREN: Record<string, readonly string[]> = {
  If: ["body", "alternate"],
  For: ["body", "defaultBlock"],
  Set: ["body"],
  Macro: ["body"],
  CallStatement: ["body"],
  FilterStatement: ["body"],
};

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The statement lists directly inside `node` (empty for nodes that hold no block). */
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

/** Every node that sits in a statement list of the program, in pre-order (source order). */
export function statementNodes(program: Program): AstNode[] {
  const nodes: AstNode[] = [];
  const walk = (list: readonly AstNode[]) => {
    for (const node of list) {
      nodes.push(node);
      for (const children of childLists(node)) walk(children);
    }
  };
  walk(program.body);
  return nodes;
}

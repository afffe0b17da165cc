/**
 * A comparison's setup as its URL holds it, so it can be shared:
 * `/compare?task=text-generation&model=org/a@together&model=org/b@endpoint:local`. Each `model`
 * is one column: a model id, `@`, and a provider or `endpoint:<name>` (model ids never hold `@`).
 */
import { z } from "zod";
import { modelIdSchema } from "#app/catalog/model-id.ts";
import { type CompareTask, DEFAULT_COMPARE_TASK, isCompareTask } from "#app/compare/compare-tasks.ts";

export const MAX_COLUMNS = 6;

export interface ColumnSpec {
  modelId: string;
  /** A provider name, or `endpoint:<name>` for a configured endpoint (the chat demo's picker values). */
  route: string;
}

export interface CompareSetup {
  task: CompareTask;
  columns: ColumnSpec[];
}

/** A column's provider name or `endpoint:<name>`. */
export const routeSchema = z
  .string()
  .min(1, "names no provider")
  .max(120, "provider name is too long")
  .regex(/^(?:endpoint:)?[A-Za-z0-9][A-Za-z0-9._-]*$/, "provider must be a name such as together, or endpoint:<name>");

/** "org/name@provider" as a column, or the reason it is not one. */
export function parseColumnSpec(value: string): { ok: true; column: ColumnSpec } | { ok: false; problem: string } {
  const at = value.lastIndexOf("@");
  const shown = value.slice(0, 80);
  if (at <= 0) return { ok: false, problem: `“${shown}” is not model@provider.` };
  const id = modelIdSchema.safeParse(value.slice(0, at));
  if (!id.success) return { ok: false, problem: `“${shown}”: ${id.error.issues[0]?.message ?? "not a model id"}.` };
  const route = routeSchema.safeParse(value.slice(at + 1));
  if (!route.success) return { ok: false, problem: `“${shown}”: ${route.error.issues[0]?.message ?? "not a provider"}.` };
  return { ok: true, column: { modelId: id.data, route: route.data } };
}

export function columnSpecString(c: ColumnSpec): string {
  return `${c.modelId}@${c.route}`;
}

/** Reads the setup; what cannot be used is dropped and reported, never guessed. */
export function parseCompareSetup(params: URLSearchParams): { setup: CompareSetup; problems: string[] } {
  const problems: string[] = [];
  const askedTask = params.get("task");
  let task: CompareTask = DEFAULT_COMPARE_TASK;
  if (askedTask !== null && askedTask !== "") {
    if (isCompareTask(askedTask)) task = askedTask;
    else problems.push(`/compare does not run the task “${askedTask.slice(0, 60)}”; showing chat.`);
  }
  const columns: ColumnSpec[] = [];
  const seen = new Set<string>();
  for (const value of params.getAll("model")) {
    const parsed = parseColumnSpec(value);
    if (!parsed.ok) {
      problems.push(parsed.problem);
      continue;
    }
    const key = columnSpecString(parsed.column);
    if (seen.has(key)) continue;
    if (columns.length >= MAX_COLUMNS) {
      problems.push(`At most ${MAX_COLUMNS} columns: “${key.slice(0, 80)}” and any after it were left out.`);
      break;
    }
    seen.add(key);
    columns.push(parsed.column);
  }
  return { setup: { task, columns }, problems };
}

/** The query string, with `/`, `@` and `:` left readable (they are safe in a query value). */
export function compareSearch(setup: CompareSetup): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%2F/gi, "/").replace(/%40/gi, "@").replace(/%3A/gi, ":");
  return `?${[`task=${enc(setup.task)}`, ...setup.columns.map((c) => `model=${enc(columnSpecString(c))}`)].join("&")}`;
}

export function compareHref(setup: CompareSetup): string {
  return `/compare${compareSearch(setup)}`;
}

/**
 * "Compare with…" from a model: a comparison of the model's task with the model on `route` as its
 * first column; when nothing here runs it, the model comes along as `from`, so the page can say so
 * and search for models like it. Null when /compare cannot run the task.
 */
export function compareWithHref(modelId: string, task: CompareTask | null, route: string | null): string | null {
  if (task === null) return null;
  if (route === null) return `${compareHref({ task, columns: [] })}&from=${encodeURIComponent(modelId).replace(/%2F/gi, "/")}`;
  return compareHref({ task, columns: [{ modelId, route }] });
}

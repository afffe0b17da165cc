import { z } from "zod";
import { columnSnippet } from "#app/compare/compare.server.ts";
import { parseColumnSpec } from "#app/compare/compare-setup.ts";
import { isCompareTask } from "#app/compare/compare-tasks.ts";
import { chatParameterSpecs } from "#app/demos/chat/demo-info.server.ts";
import { configEnv } from "#app/utils/env.server.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * GET /api/compare/snippet?task=&model=<id>@<provider>&temperature=&max_tokens=&top_p= — one
 * column's JavaScript snippet with the parameters it ran with, for a saved session.
 */
export async function loader({ request }: { request: Request }) {
  const params = new URL(request.url).searchParams;
  const task = params.get("task");
  if (!isCompareTask(task)) return jsonError(400, `Query parameter 'task' must be a task /compare runs.`, { field: "task" });
  const column = parseColumnSpec(params.get("model") ?? "");
  if (!column.ok) return jsonError(400, `Query parameter 'model': ${column.problem}`, { field: "model" });
  const spec = chatParameterSpecs();
  const within = (name: "temperature" | "max_tokens" | "top_p") => z.coerce.number().min(spec[name].min).max(spec[name].max).catch(spec[name].default);
  const parameters = z.object({ temperature: within("temperature"), max_tokens: within("max_tokens"), top_p: within("top_p") }).parse({
    temperature: params.get("temperature") ?? undefined,
    max_tokens: params.get("max_tokens") ?? undefined,
    top_p: params.get("top_p") ?? undefined,
  });
  const snippet = await columnSnippet(task, column.column, parameters, configEnv());
  return Response.json({ snippet }, { headers: { "Cache-Control": "no-store" } });
}

export function action({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/compare/snippet; use GET.`, {}, { Allow: "GET, HEAD" });
}

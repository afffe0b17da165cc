import { compareCandidates } from "#app/compare/compare.server.ts";
import { isCompareTask } from "#app/compare/compare-tasks.ts";
import { configEnv } from "#app/utils/env.server.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * GET /api/compare/candidates?task=&q= — models matching q that a provider or configured
 * endpoint here can run the task with, each with those choices, for /compare's "Add a column";
 * `more` says whether a longer search would find others.
 */
export async function loader({ request }: { request: Request }) {
  const params = new URL(request.url).searchParams;
  const task = params.get("task");
  if (!isCompareTask(task)) return jsonError(400, `Query parameter 'task' must be a task /compare runs.`, { field: "task" });
  return Response.json(await compareCandidates(task, params.get("q") ?? "", configEnv()), { headers: { "Cache-Control": "no-store" } });
}

export function action({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/compare/candidates; use GET.`, {}, { Allow: "GET, HEAD" });
}

import { getApiTasksPayload } from "#app/task-guides/tasks.server.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * GET /api/tasks in the Hub's shape (see getApiTasksPayload). @huggingface/inference fetches it
 * to find a task's default model, from browsers too, hence the open CORS header.
 */
export function loader() {
  return new Response(getApiTasksPayload(), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "Access-Control-Allow-Origin": "*",
    },
  });
}

export function action({ request }: { request: Request }) {
  return jsonError(405, `${request.method} is not supported on /api/tasks; use GET.`, {}, { Allow: "GET, HEAD" });
}

/**
 * The widget's own request as a curl command for this site's POST /api/inference, so the code
 * beside a widget carries the inputs and parameters the visitor set. The library's snippets take
 * neither for non-chat tasks (3.13.1 writes each task's fixed example input), so they cannot.
 */
import { routeFields } from "#app/demos/chat/demo-info.ts";
import type { WidgetRequest } from "#app/demos/shared/widget-frame.tsx";

/** The JSON body the widget sends for this request (without a stream flag). */
export function requestBody(modelId: string, request: WidgetRequest): Record<string, unknown> {
  // Beside a file, `inputs` stays only as visual and document QA's {question} (ADR 0021).
  const keepInputs = request.fileName === undefined || (typeof request.inputs === "object" && request.inputs !== null && !Array.isArray(request.inputs));
  return {
    model: modelId,
    task: request.task,
    ...routeFields(request.provider),
    ...(keepInputs ? { inputs: request.inputs } : {}),
    ...(Object.keys(request.parameters).length > 0 ? { parameters: request.parameters } : {}),
  };
}

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export function curlForRequest(origin: string, modelId: string, request: WidgetRequest, tokenPlaceholder = "hf_***"): string {
  const body = JSON.stringify(requestBody(modelId, request), null, 2);
  if (request.fileName !== undefined) {
    return [
      `curl ${shellQuote(`${origin}/api/inference`)} \\`,
      `    -X POST \\`,
      `    -H ${shellQuote(`X-Provider-Token: ${tokenPlaceholder}`)} \\`,
      `    -F ${shellQuote(`request=${body}`)} \\`,
      // curl's -F reads name=@path as a file; a name holding ; or , would need quoting, so it goes plain.
      `    -F ${shellQuote(`inputs=@${request.fileName.replace(/[;,"]/g, "_")}`)}`,
    ].join("\n");
  }
  return [
    `curl ${shellQuote(`${origin}/api/inference`)} \\`,
    `    -X POST \\`,
    `    -H ${shellQuote(`X-Provider-Token: ${tokenPlaceholder}`)} \\`,
    `    -H 'Content-Type: application/json' \\`,
    `    -d ${shellQuote(body)}`,
  ].join("\n");
}

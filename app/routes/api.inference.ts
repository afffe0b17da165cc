import { getInferenceGateway } from "#app/inference/gateway-instance.server.ts";
import { jsonError } from "#app/utils/http.server.ts";

/**
 * POST /api/inference: the inference gateway (app/inference/gateway.server.ts). A resource route:
 * JSON, media bytes or text/event-stream, never HTML.
 */
export async function action({ request, context }: { request: Request; context: unknown }) {
  if (request.method !== "POST") {
    return jsonError(405, `${request.method} is not supported on /api/inference; use POST.`, { code: "method_not_allowed" }, { Allow: "POST" });
  }
  return getInferenceGateway().handle(request, { clientKey: clientKeyOf(request, context) });
}

export function loader() {
  return jsonError(405, "GET is not supported on /api/inference; POST a JSON body.", { code: "method_not_allowed" }, { Allow: "POST" });
}

/**
 * The rate limit counts per socket address, which the server passes in the load context. Without
 * it (an adapter that does not provide one) every caller shares one bucket rather than trusting
 * a spoofable header.
 */
function clientKeyOf(request: Request, context: unknown): string {
  if (typeof context === "object" && context !== null && "clientAddress" in context) {
    const address = (context as { clientAddress: unknown }).clientAddress;
    if (typeof address === "string" && address !== "") return address;
  }
  void request;
  return "shared";
}

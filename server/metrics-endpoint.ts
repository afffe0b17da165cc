import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * GET /metrics: Prometheus' text format, for a scraper holding `MODELYARD_METRICS_TOKEN` as a
 * Bearer token, or for anyone reaching the metrics listener (`MODELYARD_METRICS_PORT`), which an
 * operator keeps off the public network (ADR 0041). The exposition comes from the build's entry
 * (app/utils/metrics.server.ts), so it counts this process's one copy of the app (ADR 0019).
 */
export interface MetricsEndpointOptions {
  /** Required as `Authorization: Bearer <token>` when set. */
  token: string | undefined;
  metricsText: () => Promise<{ contentType: string; body: string }>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify({ error: message }));
}

export function createMetricsEndpoint(opts: MetricsEndpointOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "GET /metrics only.", { Allow: "GET, HEAD" });
    if (opts.token !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
      if (!match?.[1] || !sameSecret(match[1], opts.token)) return refuse(res, 401, "Send MODELYARD_METRICS_TOKEN as Authorization: Bearer <token>.", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    opts.metricsText().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (error: unknown) => refuse(res, 500, `Collecting the metrics failed: ${error instanceof Error ? error.message.slice(0, 200) : "unknown error"}`),
    );
  };
}

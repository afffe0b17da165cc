/**
 * POST /api/inference, end to end: the rate limit, then parse (parse-request.server.ts), resolve
 * the target (resolve-target.server.ts) and execute (execute.server.ts), each refusing with a
 * typed GatewayError that becomes the JSON error answer here. run() is transport-free; the one
 * HTTP handler (node-adapter.server.ts) writes its outcome, in production and under `react-router dev`.
 */
import { type EnvLike, redactSecrets, serverSecrets, visitorTokenFrom } from "#app/inference/credentials.server.ts";
import { GatewayError, type GatewayErrorBody } from "#app/inference/errors.server.ts";
import { executeCall, type GatewayOutcome, type LogFields } from "#app/inference/execute.server.ts";
import { readGatewayConfig, type GatewayConfig } from "#app/inference/gateway-config.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";
import { RateLimiter, rateLimitError } from "#app/inference/limits.server.ts";
import { parseInferenceRequest, type RequestBodySource } from "#app/inference/parse-request.server.ts";
import { resolveTarget } from "#app/inference/resolve-target.server.ts";
import { jsonErrorBody } from "#app/utils/http.server.ts";

export type { GatewayOutcome } from "#app/inference/execute.server.ts";

export interface GatewayDeps {
  catalog: GatewayCatalog;
  env: EnvLike;
  /** One line per request; never receives a token (lines are scrubbed before this is called). */
  log?: (line: string) => void;
}

/** What the gateway reads from an incoming request, whichever HTTP adapter received it. */
export interface GatewayInput extends RequestBodySource {
  /** Aborts when the visitor goes away. */
  signal: AbortSignal;
  /** Who the rate limit counts against: the socket's remote address. */
  clientKey: string;
}

export interface InferenceGateway {
  run(input: GatewayInput): Promise<GatewayOutcome>;
  config: GatewayConfig;
}

function errorOutcome(body: GatewayErrorBody): GatewayOutcome {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  if (body.retryAfterSec !== undefined) headers["Retry-After"] = String(body.retryAfterSec);
  const details: Record<string, unknown> = { code: body.code };
  if (body.hint) details["hint"] = body.hint;
  if (body.upstreamStatus !== undefined) details["upstreamStatus"] = body.upstreamStatus;
  if (body.field !== undefined) details["field"] = body.field;
  return { kind: "json", status: body.status, headers, body: jsonErrorBody(body.message, details) };
}

export function createInferenceGateway(deps: GatewayDeps): InferenceGateway {
  const config = readGatewayConfig(deps.env);
  const limiter = new RateLimiter(config.rateLimit);
  const log = deps.log ?? ((line: string) => console.log(line));
  const secretsFromEnv = serverSecrets(deps.env);

  async function run(request: GatewayInput): Promise<GatewayOutcome> {
    const startedAt = performance.now();
    const visitorToken = visitorTokenFrom(request.headers);
    const secrets = [...secretsFromEnv, visitorToken];
    const logLine = (fields: LogFields) => {
      const text = Object.entries(fields)
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(" ");
      log(redactSecrets(`[inference] ${text}`, secrets));
    };
    const fail = (body: GatewayErrorBody, extra: LogFields = {}): GatewayOutcome => {
      // A visitor who stops before the first token has cancelled as surely as one who stops
      // after it (stream.server.ts logs that): one outcome for both in the log.
      const outcome = body.code === "client_closed" ? "cancelled" : undefined;
      logLine({ status: body.status, code: body.code, outcome, ms: Math.round(performance.now() - startedAt), ...extra });
      return errorOutcome(body);
    };

    const taken = limiter.take(request.clientKey);
    if (!taken.ok) return fail(rateLimitError(taken.retryAfterSec, config.rateLimit).body);
    let target;
    try {
      const { body, file } = await parseInferenceRequest(request, config.maxBodyBytes);
      target = await resolveTarget(body, visitorToken, deps, file);
    } catch (error) {
      if (error instanceof GatewayError) return fail(error.body);
      throw error;
    }
    return executeCall(target, { catalog: deps.catalog, env: deps.env, config, startedAt, signal: request.signal, secrets, logLine, fail });
  }

  return { run, config };
}

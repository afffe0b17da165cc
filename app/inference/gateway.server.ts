/**
 * POST /api/inference, end to end: who is calling and their quotas (app/auth, ADR 0038), then
 * parse (parse-request.server.ts), resolve the target (resolve-target.server.ts) and execute
 * (execute.server.ts), each refusing with a typed error that becomes the JSON error answer here.
 * Every call ends in one log line and one usage record. run() is transport-free; the one HTTP
 * handler (node-adapter.server.ts) writes its outcome, in production and under `react-router dev`.
 */
import type { Kysely } from "kysely";
import {
  AccessDenied,
  admitAnonymousServerSpend,
  admitRequest,
  type Caller,
  checkInferenceScope,
  identify,
  mayUseServerKeys,
  reserveTokens,
  settleTokens,
  type TokenReservation,
} from "#app/auth/access.server.ts";
import { type AuthConfig, readAuthConfig } from "#app/auth/auth-config.server.ts";
import { clientAddressOf } from "#app/auth/client-address.server.ts";
import { accessPolicy } from "#app/auth/policy.server.ts";
import { insertUsageRecord } from "#app/db/queries/usage.server.ts";
import type { Database } from "#app/db/schema.ts";
import { type CredentialSource, type EnvLike, redactSecrets, serverSecrets, visitorTokenFrom } from "#app/inference/credentials.server.ts";
import { redactExactSecrets } from "#app/utils/redact.server.ts";
import { GatewayError, type GatewayErrorBody } from "#app/inference/errors.server.ts";
import { executeCall, type GatewayOutcome, type LogFields, worstCaseTokens } from "#app/inference/execute.server.ts";
import { readGatewayConfig, type GatewayConfig } from "#app/inference/gateway-config.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";
import { type ParsedRequest, parseInferenceRequest, type RequestBodySource } from "#app/inference/parse-request.server.ts";
import type { InferenceRequest } from "#app/inference/request-schema.ts";
import { type InferenceTarget, resolveTarget } from "#app/inference/resolve-target.server.ts";
import { jsonErrorBody } from "#app/utils/http.server.ts";
import type { GatewayObservation } from "#app/utils/metrics.server.ts";
import { log as processLog } from "#app/utils/logger.server.ts";

export type { GatewayOutcome } from "#app/inference/execute.server.ts";

export interface GatewayDeps {
  catalog: GatewayCatalog;
  env: EnvLike;
  /** Accounts, quotas and usage records live here (the app's database). */
  database: () => Kysely<Database>;
  /** One line per request; never receives a token (lines are scrubbed before this is called). */
  log?: (line: string) => void;
  /**
   * The same line as fields, for a structured log (the process's pino log, ADR 0041); used instead
   * of `log` when given. String values are scrubbed as the line is.
   */
  logFields?: (fields: Record<string, string | number>) => void;
  /** Told of every call once it ends, as its usage record is written (app/utils/metrics.server.ts). */
  metrics?: (call: GatewayObservation) => void;
}

/** What the gateway reads from an incoming request, whichever HTTP adapter received it. */
export interface GatewayInput extends RequestBodySource {
  /** Aborts when the visitor goes away. */
  signal: AbortSignal;
  /** The socket's remote address; X-Forwarded-For counts only from a trusted proxy. */
  socketAddress: string;
  /** The request's id (x-request-id), named in the log line. */
  requestId?: string;
  /** Told who the caller is once known: the access log names them (app/utils/request-log.server.ts). */
  noteCaller?: (userId: string) => void;
}

/**
 * How one route uses the gateway's single path. /api/inference takes the defaults; the
 * OpenAI-compatible /v1 routes (app/openai-api) read their own bodies, plan a failover list of
 * providers and word errors as OpenAI does. Auth, quotas, cost caps, credentials, the deadline,
 * the log line and the usage record are the same for every route.
 */
export interface RunOptions {
  /** The route, as usage records name it. */
  endpoint: string;
  /** Reads and checks the body (default: the /api/inference body). */
  parse?: (source: RequestBodySource, maxBodyBytes: number) => Promise<ParsedRequest>;
  /**
   * The calls to try, in order, once the caller is known: a later one is tried only when the one
   * before failed before its first byte with a status `failover` accepts. Default: the body alone.
   */
  plan?: (body: InferenceRequest, context: PlanContext) => Promise<InferenceRequest[]>;
  /** Whether a failed attempt's error lets the next planned call be tried. */
  failover?: (error: GatewayErrorBody) => boolean;
  /** Refuse anonymous callers unless the access policy is `open` (the /v1 routes, ADR 0040). */
  signedInUnlessOpen?: boolean;
  /** The error answer's body text (default: the gateway's own JSON error). */
  errorBody?: (error: GatewayErrorBody) => string;
}

export interface PlanContext {
  db: Kysely<Database>;
  catalog: GatewayCatalog;
  env: EnvLike;
  /** Whether the caller may spend the server's keys. */
  serverKeys: boolean;
  /** The caller's own provider token, if they sent one. */
  visitorToken: string | undefined;
}

export interface InferenceGateway {
  run(input: GatewayInput, options?: RunOptions): Promise<GatewayOutcome>;
  config: GatewayConfig;
  access: AuthConfig;
  env: EnvLike;
  database: () => Kysely<Database>;
}

const API_INFERENCE: RunOptions = { endpoint: "/api/inference" };

/**
 * The writes a call makes once it has answered (its quota settled, its usage record), which no
 * request waits for. Shutdown waits for them before closing the database (gatewayWritesSettled):
 * it closed it as soon as the last stream ended, so the calls ending last lost their records and
 * kept their worst case held against the day's quota.
 */
const pendingWrites = new Set<Promise<void>>();

function trackWrite(write: Promise<void>): void {
  const tracked = write.finally(() => pendingWrites.delete(tracked));
  pendingWrites.add(tracked);
}

/** Resolves once every write of the calls that have ended is done (or failed, which it logs). */
export async function gatewayWritesSettled(): Promise<void> {
  while (pendingWrites.size > 0) await Promise.allSettled([...pendingWrites]);
}

function gatewayErrorText(body: GatewayErrorBody): string {
  const details: Record<string, unknown> = { code: body.code };
  if (body.hint) details["hint"] = body.hint;
  if (body.upstreamStatus !== undefined) details["upstreamStatus"] = body.upstreamStatus;
  if (body.field !== undefined) details["field"] = body.field;
  return jsonErrorBody(body.message, details);
}

function errorOutcome(body: GatewayErrorBody, format: (body: GatewayErrorBody) => string, headersExtra: Record<string, string> = {}): GatewayOutcome {
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headersExtra };
  if (body.retryAfterSec !== undefined) headers["Retry-After"] = String(body.retryAfterSec);
  return { kind: "json", status: body.status, headers, body: format(body), error: body };
}

function deniedBody(denied: AccessDenied): GatewayErrorBody {
  const body: GatewayErrorBody = { status: denied.status, code: denied.code as GatewayErrorBody["code"], message: denied.message };
  if (denied.extra.hint) body.hint = denied.extra.hint;
  if (denied.extra.retryAfterSec !== undefined) body.retryAfterSec = denied.extra.retryAfterSec;
  if (denied.extra.field !== undefined) body.field = denied.extra.field;
  return body;
}

/** Whose key paid, as usage records name it. */
function paidBy(source: CredentialSource | undefined): string {
  if (source === "visitor") return "visitor";
  if (source === "server-provider-key" || source === "server-hf-token") return "server";
  if (source === "endpoint-key") return "endpoint";
  return "none";
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? Math.round(v) : null);

/** A call's outcome for the metrics: a stream says its own; otherwise its status does (4xx: refused). */
function outcomeOf(fields: LogFields, status: number): GatewayObservation["outcome"] {
  const said = fields["outcome"];
  if (said === "ok" || said === "error" || said === "cancelled") return said;
  if (status === 499) return "cancelled";
  if (status >= 500) return "error";
  return status >= 400 ? "refused" : "ok";
}

export function createInferenceGateway(deps: GatewayDeps): InferenceGateway {
  const config = readGatewayConfig(deps.env);
  const access = readAuthConfig(deps.env);
  const log = deps.log ?? ((line: string) => console.log(line));
  const secretsFromEnv = serverSecrets(deps.env);

  async function run(request: GatewayInput, options: RunOptions = API_INFERENCE): Promise<GatewayOutcome> {
    const format = options.errorBody ?? gatewayErrorText;
    const startedAt = performance.now();
    const at = new Date();
    const visitorToken = visitorTokenFrom(request.headers);
    const secrets = [...secretsFromEnv, visitorToken, request.headers.get("authorization") ?? undefined];
    const address = clientAddressOf(request.socketAddress, request.headers.get("x-forwarded-for"), access.trustedProxies);
    let caller: Caller = { kind: "anonymous", address };
    let target: InferenceTarget | null = null;
    // The tokens the attempt being made holds against the caller's daily quotas: settled, once,
    // by that attempt's log line, which every way a call ends writes.
    let reservation: TokenReservation | null = null;
    const settle = (charged: number) => {
      const held = reservation;
      reservation = null;
      trackWrite(
        settleTokens(deps.database(), caller, held, charged, access).catch((error: unknown) =>
          processLog().error(`[inference] token quota not settled: ${error instanceof Error ? error.message : String(error)}`),
        ),
      );
    };

    const record = (fields: LogFields) => {
      const tokensIn = num(fields["tokens_in"]);
      const tokensOut = num(fields["tokens_out"]);
      const db = deps.database();
      const status = num(fields["status"]) ?? 0;
      const durationMs = num(fields["ms"]) ?? Math.round(performance.now() - startedAt);
      const ttftMs = num(fields["ttft_ms"]);
      const paid = paidBy(target?.credential.source);
      // Counts the provider gave (or a stream's counted chunks), plus the estimate of what went
      // uncounted: a whole answer the provider reported nothing for, or a stream's prompt.
      const charged = (tokensIn ?? 0) + (tokensOut ?? 0) + (num(fields["tokens_est"]) ?? 0);
      settle(charged);
      deps.metrics?.({ provider: target?.providerLabel ?? "none", task: target?.task ?? "none", outcome: outcomeOf(fields, status), paidBy: paid, seconds: durationMs / 1000, ttftSeconds: ttftMs === null ? null : ttftMs / 1000 });
      const written = insertUsageRecord(db, {
        at: at.toISOString(),
        day: at.toISOString().slice(0, 10),
        user_id: caller.kind === "anonymous" ? null : caller.user.id,
        token_id: caller.kind === "token" ? caller.token.id : null,
        subject: caller.kind === "anonymous" ? "anonymous" : caller.user.email,
        model: target?.requestedModel ?? null,
        provider: target ? target.providerLabel : null,
        task: target?.task ?? null,
        paid_by: paid,
        status,
        duration_ms: durationMs,
        ttft_ms: ttftMs,
        tokens_in: tokensIn,
        tokens_out: tokensOut,
        bill_to: target?.call.billTo ?? null,
        endpoint: options.endpoint,
      }).catch((error: unknown) => processLog().error(`[inference] usage record not written: ${error instanceof Error ? error.message : String(error)}`));
      trackWrite(written);
    };
    const logLine = (fields: LogFields) => {
      const who = caller.kind === "anonymous" ? "anonymous" : caller.kind === "token" ? `token:${caller.token.id}` : `user:${caller.user.id}`;
      if (deps.logFields) {
        const out: Record<string, string | number> = {};
        if (request.requestId !== undefined) out["req_id"] = request.requestId;
        for (const key in fields) {
          const v = fields[key];
          // The log scrubs token shapes and the server's secrets from the whole line; the caller's own token is this request's to remove.
          if (v !== undefined && v !== null) out[key] = typeof v === "string" ? redactExactSecrets(v, secrets) : v;
        }
        out["caller"] = who;
        deps.logFields(out);
        record(fields);
        return;
      }
      const text = Object.entries({ ...fields, caller: who })
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(" ");
      log(redactSecrets(`[inference] ${text}`, secrets));
      record(fields);
    };
    const fail = (body: GatewayErrorBody, extra: LogFields = {}, headers: Record<string, string> = {}): GatewayOutcome => {
      // A visitor who stops before the first token has cancelled as surely as one who stops
      // after it (stream.server.ts logs that): one outcome for both in the log. A provider's error
      // answer (a 429, a key it rejects) is its failure, not this server refusing the call, so an
      // operator alerting on errors sees it; a provider refusing the request as sent stays refused.
      const outcome =
        body.code === "client_closed" ? "cancelled" : body.upstreamStatus !== undefined && body.code !== "upstream_bad_request" ? "error" : undefined;
      logLine({ status: body.status, code: body.code, outcome, ms: Math.round(performance.now() - startedAt), ...extra });
      return errorOutcome(body, format, headers);
    };

    const db = deps.database();
    try {
      caller = await identify(db, request.headers, address);
      if (caller.kind !== "anonymous") request.noteCaller?.(caller.user.id);
      checkInferenceScope(caller);
      if (options.signedInUnlessOpen && caller.kind === "anonymous" && (await accessPolicy(db, access)) !== "open") {
        return fail({
          status: 401,
          code: "sign_in_required",
          message: "This server's API needs a Modelyard API token: send it as Authorization: Bearer myd_… (create one on /settings/tokens).",
          field: null,
        });
      }
      await admitRequest(db, caller, access);
    } catch (error) {
      if (error instanceof AccessDenied) return fail(deniedBody(error));
      throw error;
    }

    let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
    let parsed: ParsedRequest;
    let policy: Awaited<ReturnType<typeof accessPolicy>>;
    let planned: InferenceRequest[];
    try {
      // Reading the body counts in the deadline: a body trickled in a byte at a time is cut off.
      const bodyDeadline = new Promise<never>((_, reject) => {
        deadlineTimer = setTimeout(
          () => reject(new GatewayError({ status: 408, code: "deadline_exceeded", message: `The request body did not arrive within ${Math.round(config.deadlineMs / 1000)} s.`, field: null })),
          config.deadlineMs,
        );
      });
      const parse = options.parse ?? parseInferenceRequest;
      parsed = await Promise.race([parse(request, config.maxBodyBytes), bodyDeadline]);
      clearTimeout(deadlineTimer);
      policy = await accessPolicy(db, access);
      const serverKeys = mayUseServerKeys(caller, policy);
      planned = options.plan ? await options.plan(parsed.body, { db, catalog: deps.catalog, env: deps.env, serverKeys, visitorToken }) : [parsed.body];
    } catch (error) {
      clearTimeout(deadlineTimer);
      if (error instanceof GatewayError) return fail(error.body, {}, error.body.status === 408 ? { Connection: "close" } : {});
      if (error instanceof AccessDenied) return fail(deniedBody(error));
      throw error;
    }
    let outcome: GatewayOutcome | null = null;
    for (const [attempt, body] of planned.entries()) {
      try {
        target = await resolveTarget(body, visitorToken, { ...deps, serverKeys: mayUseServerKeys(caller, policy), caps: config.caps, billToAllowed: access.billToAllowed }, parsed.file);
        if (attempt === 0 && caller.kind === "anonymous" && target.credential.source !== "visitor" && target.credential.source !== "none") await admitAnonymousServerSpend(db, access);
        reservation = await reserveTokens(db, caller, access, worstCaseTokens(target.call, config.caps));
      } catch (error) {
        if (error instanceof GatewayError) return fail(error.body);
        if (error instanceof AccessDenied) return fail(deniedBody(error));
        throw error;
      }
      try {
        outcome = await executeCall(target, { catalog: deps.catalog, env: deps.env, config, startedAt, signal: request.signal, secrets, logLine, fail });
      } catch (error) {
        // No log line will settle it: give the reservation back before the adapter answers 500.
        settle(0);
        throw error;
      }
      const last = attempt === planned.length - 1;
      if (last || outcome.kind !== "json" || !outcome.error || !options.failover?.(outcome.error) || request.signal.aborted) break;
    }
    // plan() returns at least one call; an empty plan is the planner's own 4xx.
    return outcome ?? fail({ status: 404, code: "model_not_on_provider", message: "No provider serves this model here." });
  }

  return { run, config, access, env: deps.env, database: deps.database };
}

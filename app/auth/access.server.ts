/**
 * Who is calling, and what they may spend (ADR 0038). A caller is anonymous, a signed-in person
 * (session cookie) or an API token (`Authorization: Bearer myd_…`). Quotas are counted in the
 * database, so every instance counts against the same numbers.
 */
import { limitKeyOf } from "#app/auth/client-address.server.ts";
import type { AccessPolicy, AuthConfig } from "#app/auth/auth-config.server.ts";
import { isApiToken, sha256Hex } from "#app/auth/secrets.server.ts";
import type { Kysely } from "kysely";
import { type ApiTokenRow, findLiveApiToken, findSessionUser, touchApiToken, type User } from "#app/db/queries/accounts.server.ts";
import { addToCounter, addToCounterWithin, readCounter, subtractFromCounter } from "#app/db/queries/usage.server.ts";
import type { Database } from "#app/db/schema.ts";

export type Caller =
  | { kind: "anonymous"; address: string }
  | { kind: "session"; address: string; user: User }
  | { kind: "token"; address: string; user: User; token: ApiTokenRow };

/** A refusal, with what an API answer needs to say it. */
export class AccessDenied extends Error {
  constructor(
    readonly status: 401 | 403 | 429,
    readonly code: string,
    message: string,
    readonly extra: { hint?: string; retryAfterSec?: number; field?: string } = {},
  ) {
    super(message);
    this.name = "AccessDenied";
  }
}

export const SESSION_COOKIE = "modelyard_session";

export function cookieValue(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** The signed-in person of a request's session cookie, or null. */
export async function sessionUser(db: Kysely<Database>, cookieHeader: string | null, now = Date.now()): Promise<User | null> {
  const id = cookieValue(cookieHeader, SESSION_COOKIE);
  if (!id || id.length > 100) return null;
  return (await findSessionUser(db, sha256Hex(id), new Date(now).toISOString())) ?? null;
}

/** Authorization carries only Modelyard tokens; a provider's token has a header of its own. */
export const PROVIDER_TOKEN_HEADER = "x-provider-token";

/**
 * The caller of a request. A bad Authorization header is refused, never treated as anonymous: a
 * client that sent a token expects it to count.
 */
export async function identify(db: Kysely<Database>, headers: { get(name: string): string | null }, address: string, now = Date.now()): Promise<Caller> {
  const authorization = headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const value = match?.[1];
    if (!value) throw new AccessDenied(401, "invalid_token", "The Authorization header must be `Bearer <Modelyard API token>`.", { field: "Authorization" });
    if (!isApiToken(value)) {
      throw new AccessDenied(401, "invalid_token", "Authorization carries a Modelyard API token (it starts with myd_). Send a provider's own token in the X-Provider-Token header instead.", {
        field: "Authorization",
        hint: "Create a Modelyard token on /settings/tokens, or send your provider token as X-Provider-Token.",
      });
    }
    const found = await findLiveApiToken(db, sha256Hex(value), new Date(now).toISOString());
    if (!found) throw new AccessDenied(401, "invalid_token", "The API token is not valid: it is unknown, revoked or expired, or its owner is disabled.", { field: "Authorization" });
    // Last-used is kept to the minute: one write a minute per token, not one per call.
    const nowIso = new Date(now).toISOString();
    if (!found.token.last_used_at || found.token.last_used_at.slice(0, 16) !== nowIso.slice(0, 16)) await touchApiToken(db, found.token.id, nowIso);
    return { kind: "token", address, user: found.user, token: found.token };
  }
  const user = await sessionUser(db, headers.get("cookie"), now);
  return user ? { kind: "session", address, user } : { kind: "anonymous", address };
}

export function tokenScopes(token: ApiTokenRow): string[] {
  return token.scopes.split(",").filter((s) => s !== "");
}

/** Whether the caller may run inference at all (a token needs the `inference` scope). */
export function checkInferenceScope(caller: Caller): void {
  if (caller.kind === "token" && !tokenScopes(caller.token).includes("inference")) {
    throw new AccessDenied(403, "insufficient_scope", "This API token lacks the `inference` scope.", { hint: "Create a token with the inference scope on /settings/tokens." });
  }
}

/** Whether the caller may spend keys the server holds (HF_TOKEN, provider and endpoint keys). */
export function mayUseServerKeys(caller: Caller, policy: AccessPolicy): boolean {
  return policy === "open" || caller.kind !== "anonymous";
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function retryAfter(windowMs: number, now: number): number {
  return Math.max(1, Math.ceil(((Math.floor(now / windowMs) + 1) * windowMs - now) / 1000));
}

/**
 * Counts one request in `key`'s window and refuses it past `limit`. Rates slide: the previous
 * window counts by the share of it still inside the last `windowMs`, so a burst across a window's
 * edge cannot pass twice the limit. Daily budgets are calendar days (they renew at midnight UTC).
 */
async function takeFromWindow(
  db: Kysely<Database>,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
  refusal: (retryAfterSec: number) => AccessDenied,
  sliding = true,
): Promise<void> {
  const window = Math.floor(now / windowMs);
  const count = await addToCounter(db, key, window, 1);
  let estimate = count;
  if (sliding && count <= limit) {
    const previous = await readCounter(db, key, window - 1);
    estimate += previous * (1 - (now - window * windowMs) / windowMs);
  }
  if (estimate > limit) throw refusal(retryAfter(windowMs, now));
}

export interface CallerLimits {
  rpm: { key: string; limit: number }[];
  tokensPerDay: { key: string; limit: number }[];
}

/** The request-rate and daily-token limits that apply to a signed-in caller: the person's, and the token's own when it has them. */
export function limitsOf(caller: Exclude<Caller, { kind: "anonymous" }>, config: AuthConfig): CallerLimits {
  const rpm = [{ key: `rpm:user:${caller.user.id}`, limit: caller.user.quotaRpm ?? config.memberRpm }];
  const perDay = caller.user.quotaTokensPerDay ?? config.memberTokensPerDay;
  const tokensPerDay = perDay === null ? [] : [{ key: `tokens:user:${caller.user.id}`, limit: perDay }];
  if (caller.kind === "token") {
    if (caller.token.rpm !== null) rpm.push({ key: `rpm:token:${caller.token.id}`, limit: caller.token.rpm });
    if (caller.token.tokens_per_day !== null) tokensPerDay.push({ key: `tokens:token:${caller.token.id}`, limit: Number(caller.token.tokens_per_day) });
  }
  return { rpm, tokensPerDay };
}

/**
 * Counts one request against the caller's request rates; past one, a 429 with Retry-After. Daily
 * token quotas are taken once the call is known, by reserveTokens.
 */
export async function admitRequest(db: Kysely<Database>, caller: Caller, config: AuthConfig, now = Date.now()): Promise<void> {
  if (caller.kind === "anonymous") {
    const { limit, windowMs } = config.anonymousRate;
    await takeFromWindow(db, `rpm:addr:${limitKeyOf(caller.address)}`, limit, windowMs, now, (s) =>
      new AccessDenied(429, "rate_limited", `Too many inference requests from this client: at most ${limit} per ${Math.round(windowMs / 1000)} s. Try again in ${s} s.`, {
        retryAfterSec: s,
        hint: `You are sending requests too quickly. Wait ${s} s and try again.`,
      }),
    );
    return;
  }
  for (const r of limitsOf(caller, config).rpm) {
    await takeFromWindow(db, r.key, r.limit, MINUTE_MS, now, (s) =>
      new AccessDenied(429, "rate_limited", `At most ${r.limit} inference requests a minute${r.key.startsWith("rpm:token:") ? " for this API token" : ""}. Try again in ${s} s.`, { retryAfterSec: s }),
    );
  }
}

/** The site-wide daily budget for anonymous calls on the server's keys (MODELYARD_ANONYMOUS_DAILY_REQUESTS). */
export async function admitAnonymousServerSpend(db: Kysely<Database>, config: AuthConfig, now = Date.now()): Promise<void> {
  await takeFromWindow(
    db,
    "budget:anonymous",
    config.anonymousDailyRequests,
    DAY_MS,
    now,
    (s) =>
      new AccessDenied(429, "anonymous_budget_spent", `Today's budget of ${config.anonymousDailyRequests} anonymous requests on this server's keys is spent. It renews at midnight UTC, in ${s} s.`, {
        retryAfterSec: s,
        hint: "Sign in, or add your own provider token in Settings.",
      }),
    false,
  );
}

/** Tokens held against a caller's daily quotas while a call runs (reserveTokens), until settleTokens. */
export interface TokenReservation {
  /** The day (UTC, in days since the epoch) whose counters hold the tokens. */
  day: number;
  tokens: number;
  /** The counters that hold them: those of the caller's daily quotas. */
  keys: readonly string[];
}

/** The 429 for a reservation that does not fit: the quota is used up, or has less left than this call may use. */
async function quotaRefusal(db: Kysely<Database>, quota: { key: string; limit: number }, amount: number, day: number, now: number): Promise<AccessDenied> {
  const used = await readCounter(db, quota.key, day);
  const s = retryAfter(DAY_MS, now);
  const whose = quota.key.startsWith("tokens:token:") ? " for this API token" : "";
  const message =
    used >= quota.limit
      ? `The daily quota of ${quota.limit} tokens${whose} is used up. It renews at midnight UTC, in ${s} s.`
      : `The daily quota of ${quota.limit} tokens${whose} has ${quota.limit - used} left, and this call may use up to ${amount} (its prompt, and its longest answer times the answers asked for). Ask for fewer tokens, or wait for midnight UTC, in ${s} s.`;
  return new AccessDenied(429, "quota_exceeded", message, { retryAfterSec: s });
}

/**
 * Holds a call's worst case (`tokens`: its prompt and the most it may generate) against each of
 * the caller's daily token quotas before the call is made, each in one conditional statement, so
 * parallel calls cannot all pass a quota that only one of them fits (they did when a quota was
 * only read before the call and charged after it). Refused with a 429 when it would pass one; the
 * counters already taken are given back. At least one token is held, so a spent quota refuses
 * every call.
 */
export async function reserveTokens(db: Kysely<Database>, caller: Caller, config: AuthConfig, tokens: number, now = Date.now()): Promise<TokenReservation | null> {
  if (caller.kind === "anonymous") return null;
  const quotas = limitsOf(caller, config).tokensPerDay;
  if (quotas.length === 0) return null;
  const day = Math.floor(now / DAY_MS);
  const amount = Math.max(1, Math.ceil(tokens));
  const taken: string[] = [];
  try {
    for (const t of quotas) {
      if ((await addToCounterWithin(db, t.key, day, amount, t.limit)) === null) throw await quotaRefusal(db, t, amount, day, now);
      taken.push(t.key);
    }
  } catch (error) {
    await Promise.allSettled(taken.map((key) => subtractFromCounter(db, key, day, amount)));
    throw error;
  }
  return { day, tokens: amount, keys: taken };
}

/**
 * Replaces a call's reservation with what it really cost (`tokens`, 0 for a call that failed), once:
 * the person's daily counter always counts it, and each counter that held the reservation gives it
 * back. A call that ran past midnight is charged to the day it ended.
 */
export async function settleTokens(db: Kysely<Database>, caller: Caller, reservation: TokenReservation | null, tokens: number, config: AuthConfig, now = Date.now()): Promise<void> {
  if (caller.kind === "anonymous") return;
  const day = Math.floor(now / DAY_MS);
  const charged = Math.max(0, tokens);
  const heldDay = reservation?.day ?? day;
  const keys = new Set([`tokens:user:${caller.user.id}`, ...limitsOf(caller, config).tokensPerDay.map((t) => t.key), ...(reservation?.keys ?? [])]);
  for (const key of keys) {
    const held = reservation?.keys.includes(key) ? reservation.tokens : 0;
    if (held > 0 && heldDay !== day) {
      await subtractFromCounter(db, key, heldDay, held);
      if (charged > 0) await addToCounter(db, key, day, charged);
    } else if (charged > held) await addToCounter(db, key, day, charged - held);
    else if (charged < held) await subtractFromCounter(db, key, day, held - charged);
  }
}

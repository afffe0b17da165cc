/**
 * Who may do what, from the environment (declared in app/utils/env.server.ts; a bad value names
 * its variable). ADR 0038 explains the policies; README's "Access" section tells how they combine.
 */
import { BlockList, isIP } from "node:net";
import type { AccessPolicy } from "#app/auth/viewer.ts";
import { type EnvLike, readConfig } from "#app/utils/env.server.ts";

export type { AccessPolicy } from "#app/auth/viewer.ts";

const AUTH_VARS = [
  "MODELYARD_ACCESS",
  "MODELYARD_PUBLIC_URL",
  "MODELYARD_OIDC_ISSUER",
  "MODELYARD_OIDC_CLIENT_ID",
  "MODELYARD_OIDC_CLIENT_SECRET",
  "MODELYARD_OIDC_ALLOWED",
  "MODELYARD_ADMIN_EMAILS",
  "MODELYARD_TRUSTED_PROXIES",
  "MODELYARD_BILL_TO_ALLOWED",
  "MODELYARD_SESSION_DAYS",
  "MODELYARD_USAGE_RETENTION_DAYS",
  "MODELYARD_MEMBER_RPM",
  "MODELYARD_MEMBER_TOKENS_PER_DAY",
  "MODELYARD_ANONYMOUS_DAILY_REQUESTS",
  // The per-address limit is the gateway's older setting, kept: it now counts in the database.
  "MODELYARD_INFERENCE_RATE_LIMIT",
  "MODELYARD_INFERENCE_RATE_WINDOW_MS",
] as const;

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** E-mail addresses and @domains (or bare domains) allowed to sign in. */
  allowed: string[];
}

export interface AuthConfig {
  access: AccessPolicy;
  /** The site's own origin as visitors reach it, when set (redirect URIs, links the CLI prints). */
  publicUrl: string | null;
  oidc: OidcConfig | null;
  adminEmails: string[];
  trustedProxies: BlockList | null;
  billToAllowed: string[];
  sessionDays: number;
  usageRetentionDays: number;
  memberRpm: number;
  memberTokensPerDay: number | null;
  anonymousDailyRequests: number;
  anonymousRate: { limit: number; windowMs: number };
}

function trustedProxies(entries: string[]): BlockList | null {
  if (entries.length === 0) return null;
  const blocks = new BlockList();
  for (const entry of entries) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    if (family === 0) throw new Error(`MODELYARD_TRUSTED_PROXIES: '${entry}' is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) blocks.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) throw new Error(`MODELYARD_TRUSTED_PROXIES: '${entry}' has a bad prefix length`);
      blocks.addSubnet(address, prefix, type);
    }
  }
  return blocks;
}

const cache = new WeakMap<object, AuthConfig>();

export function readAuthConfig(env: EnvLike): AuthConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const c = readConfig(env, AUTH_VARS, "access settings");
  const oidcParts = [c.MODELYARD_OIDC_ISSUER, c.MODELYARD_OIDC_CLIENT_ID, c.MODELYARD_OIDC_CLIENT_SECRET];
  if (oidcParts.some((v) => v !== undefined) && oidcParts.some((v) => v === undefined)) {
    throw new Error("Invalid access settings: OpenID Connect needs all of MODELYARD_OIDC_ISSUER, MODELYARD_OIDC_CLIENT_ID and MODELYARD_OIDC_CLIENT_SECRET");
  }
  const config: AuthConfig = {
    access: c.MODELYARD_ACCESS,
    publicUrl: c.MODELYARD_PUBLIC_URL ? c.MODELYARD_PUBLIC_URL.replace(/\/+$/, "") : null,
    oidc:
      c.MODELYARD_OIDC_ISSUER && c.MODELYARD_OIDC_CLIENT_ID && c.MODELYARD_OIDC_CLIENT_SECRET
        ? { issuer: c.MODELYARD_OIDC_ISSUER, clientId: c.MODELYARD_OIDC_CLIENT_ID, clientSecret: c.MODELYARD_OIDC_CLIENT_SECRET, allowed: c.MODELYARD_OIDC_ALLOWED }
        : null,
    adminEmails: c.MODELYARD_ADMIN_EMAILS,
    trustedProxies: trustedProxies(c.MODELYARD_TRUSTED_PROXIES),
    billToAllowed: c.MODELYARD_BILL_TO_ALLOWED,
    sessionDays: c.MODELYARD_SESSION_DAYS,
    usageRetentionDays: c.MODELYARD_USAGE_RETENTION_DAYS,
    memberRpm: c.MODELYARD_MEMBER_RPM,
    memberTokensPerDay: c.MODELYARD_MEMBER_TOKENS_PER_DAY ?? null,
    anonymousDailyRequests: c.MODELYARD_ANONYMOUS_DAILY_REQUESTS,
    anonymousRate: { limit: c.MODELYARD_INFERENCE_RATE_LIMIT, windowMs: c.MODELYARD_INFERENCE_RATE_WINDOW_MS },
  };
  cache.set(env, config);
  return config;
}

/**
 * Whether an e-mail is on an allow-list of addresses, `@domain` or bare `domain` entries. An
 * empty list allows no one new: a public provider (Google) must not let the whole world in.
 */
export function emailAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return false;
  const e = email.toLowerCase();
  const domain = e.slice(e.lastIndexOf("@") + 1);
  return allowed.some((entry) => (entry.includes("@") && !entry.startsWith("@") ? entry === e : entry.replace(/^@/, "") === domain));
}

/** Whether the server holds any key of its own that a visitor's call could spend. */
export function serverHoldsKeys(env: EnvLike): boolean {
  return Object.entries(env).some(
    ([k, v]) => (k === "HF_TOKEN" || k.startsWith("MODELYARD_PROVIDER_KEY_") || k.startsWith("MODELYARD_ENDPOINT_KEY_")) && (v ?? "").trim() !== "",
  );
}

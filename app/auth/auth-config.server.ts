/**
 * Who may do what, from the environment (validated; a bad value names its variable). ADR 0038
 * explains the policies; README's "Access" section lists every variable.
 */
import { BlockList, isIP } from "node:net";
import { z } from "zod";
import type { AccessPolicy } from "#app/auth/viewer.ts";
import type { EnvLike } from "#app/inference/credentials.server.ts";

export type { AccessPolicy } from "#app/auth/viewer.ts";

const list = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== ""),
  );
const intFrom = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);
const optionalInt = (min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === "") return null;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}, or empty for no limit` });
        return z.NEVER;
      }
      return n;
    });

const schema = z.object({
  MODELYARD_ACCESS: z.enum(["open", "members", "private"], { error: "MODELYARD_ACCESS must be open, members or private" }).default("members"),
  MODELYARD_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  MODELYARD_OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  MODELYARD_OIDC_CLIENT_ID: z.string().min(1).optional(),
  MODELYARD_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  MODELYARD_OIDC_ALLOWED: list,
  MODELYARD_ADMIN_EMAILS: list,
  MODELYARD_TRUSTED_PROXIES: list,
  MODELYARD_BILL_TO_ALLOWED: list,
  MODELYARD_SESSION_DAYS: intFrom(30, 1, 365),
  MODELYARD_USAGE_RETENTION_DAYS: intFrom(90, 1, 3650),
  MODELYARD_MEMBER_RPM: intFrom(60, 1, 1_000_000),
  MODELYARD_MEMBER_TOKENS_PER_DAY: optionalInt(1, 1_000_000_000_000),
  MODELYARD_ANONYMOUS_DAILY_REQUESTS: intFrom(1_000, 0, 100_000_000),
  // The per-address limit is the gateway's older setting, kept: it now counts in the database.
  MODELYARD_INFERENCE_RATE_LIMIT: intFrom(30, 1, 1_000_000),
  MODELYARD_INFERENCE_RATE_WINDOW_MS: intFrom(60_000, 1_000, 86_400_000),
});

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
  const cleaned = Object.fromEntries(Object.entries(env).filter(([k, v]) => k in schema.shape && v !== undefined && v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid access settings: ${lines.join("; ")}`);
  }
  const c = parsed.data;
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
    memberTokensPerDay: c.MODELYARD_MEMBER_TOKENS_PER_DAY,
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

import type { ApiTokenListing } from "#app/db/queries/accounts.server.ts";
import type { TokenView } from "#app/auth/token-table.tsx";

/** A stored token as the pages show it: never its hash, only its display prefix. */
export function tokenView(t: ApiTokenListing, now: string): TokenView {
  const limits = [t.rpm !== null ? `${t.rpm} requests/min` : null, t.tokens_per_day !== null ? `${Number(t.tokens_per_day).toLocaleString("en-US")} tokens/day` : null].filter((x) => x !== null);
  return {
    id: t.id,
    name: t.name,
    email: t.email,
    displayPrefix: t.display_prefix,
    scopes: t.scopes,
    createdAt: t.created_at,
    expiresAt: t.expires_at,
    lastUsedAt: t.last_used_at,
    state: t.revoked_at ? "revoked" : t.expires_at && t.expires_at <= now ? "expired" : "live",
    limits: limits.length ? limits.join(" · ") : null,
  };
}

export const PAGE_SIZE = 25;

/** The last page of a listing of `total` rows: 1 when it is empty, as page 1 shows that it is. */
export function lastPageOf(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** ?page=N, 1-based; anything else is page 1. */
export function pageOf(request: Request): number {
  const raw = Number(new URL(request.url).searchParams.get("page") ?? "1");
  return Number.isInteger(raw) && raw >= 1 && raw <= 100_000 ? raw : 1;
}

/**
 * Refuses state-changing requests another site made through a visitor's browser (ADR 0038). A
 * browser says where a request came from (Sec-Fetch-Site, Origin) and a page cannot forge either,
 * so a form auto-submitted or a `no-cors` fetch from elsewhere is turned away before it is read.
 * Clients that are not browsers send neither and are let through: they hold no visitor's cookies.
 * With MODELYARD_PUBLIC_URL set, only its origin is the site's: a page on a name the attacker
 * points at this server (DNS rebinding) has an Origin equal to its Host, and an intranet server
 * on `open` would otherwise let it spend the server's keys.
 */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function crossSiteRefusal(method: string, headers: { get(name: string): string | null }, publicUrl: string | null): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return `a ${site} request`;
  const origin = headers.get("origin");
  if (origin === null) return null;
  if (origin === "null") return "a request from an opaque origin";
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "a request with a malformed Origin";
  }
  const own = publicUrl !== null ? origin === new URL(publicUrl).origin : originHost === headers.get("host")?.toLowerCase();
  return own ? null : `a request from ${origin.slice(0, 100)}`;
}

/** The refusal's words, the same on pages, /api and /v1: what is refused and who is let through. */
export function crossSiteMessage(refusal: string): string {
  return `Refused ${refusal}: in a browser, this server accepts changes only from its own pages. Clients that are not browsers (the SDKs, curl, servers) send no Origin or Sec-Fetch-Site and are let through.`;
}

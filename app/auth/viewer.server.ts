/**
 * The signed-in person of a page request, for loaders and actions: who they are, whether they
 * must sign in first, and the CSRF token their forms carry.
 */
import { redirect } from "react-router";
import { cookieValue, SESSION_COOKIE, sessionUser } from "#app/auth/access.server.ts";
import { readAuthConfig, type AuthConfig } from "#app/auth/auth-config.server.ts";
import { accessPolicy } from "#app/auth/policy.server.ts";
import { safeEqual, sha256Hex } from "#app/auth/secrets.server.ts";
import type { User } from "#app/db/queries/accounts.server.ts";
import type { RootAccess } from "#app/auth/viewer.ts";
import { getDb } from "#app/db/db.server.ts";
import { configEnv } from "#app/utils/env.server.ts";

export function authConfig(): AuthConfig {
  return readAuthConfig(configEnv());
}

/** What the root loader tells every page about who is looking; `onViewer` hears their id (the access log). */
export async function rootAccess(request: Request, onViewer?: (userId: string) => void): Promise<RootAccess> {
  const viewer = await getViewer(request);
  if (viewer) onViewer?.(viewer.id);
  return { viewer: viewer ? { email: viewer.email, role: viewer.role } : null, policy: await accessPolicy(getDb().db, authConfig()), csrf: viewer ? csrfTokenOf(request) : null };
}

export async function getViewer(request: Request): Promise<User | null> {
  return sessionUser(getDb().db, request.headers.get("cookie"));
}

/** Where to come back to after signing in: this page, as a same-site path. */
function loginRedirect(request: Request): never {
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

export async function requireViewer(request: Request): Promise<User> {
  const viewer = await getViewer(request);
  if (!viewer) loginRedirect(request);
  return viewer;
}

export async function requireAdmin(request: Request): Promise<User> {
  const viewer = await requireViewer(request);
  if (viewer.role !== "admin") throw new Response("Only admins may open this page.", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return viewer;
}

/**
 * The CSRF token of the request's session: derived from the session id, which only this browser
 * holds (HttpOnly), so another site can neither read nor compute it.
 */
export function csrfTokenOf(request: Request): string {
  const id = cookieValue(request.headers.get("cookie"), SESSION_COOKIE) ?? "";
  return sha256Hex(`csrf:${id}`);
}

/** Refuses a form post whose `csrf` field is not the session's (403 on the page). */
export function checkCsrf(request: Request, form: FormData): void {
  const sent = form.get("csrf");
  if (typeof sent !== "string" || !safeEqual(sent, csrfTokenOf(request))) {
    throw new Response("This form has expired or came from another site. Reload the page and try again.", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}

/** Whether cookies must be Secure: the site is served over TLS (its public URL, or this request). */
export function secureCookies(request: Request, config: AuthConfig): boolean {
  return (config.publicUrl ?? request.url).startsWith("https:");
}

/** A same-site path to go to after a form, or "/" (no scheme, no host, no backslash tricks). */
export function safeRedirect(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2000) return fallback;
  // Browsers read "\" as "/", so "/\evil.example" leaves the site; control characters are dropped by URL parsers.
  if (!value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  try {
    const url = new URL(value, "http://modelyard.invalid");
    // Dot segments collapse as the URL is read ("/.//evil.example" is the path "//evil.example"),
    // and a path that begins "//" leaves the site as a Location.
    return url.origin === "http://modelyard.invalid" && !url.pathname.startsWith("//") ? url.pathname + url.search + url.hash : fallback;
  } catch {
    return fallback;
  }
}

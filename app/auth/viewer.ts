/**
 * What every page knows of who is looking (the root loader's `access`, through AccessContext), and what the demos make
 * of it: whether this visitor may run a demo on the site's own keys, or must sign in first.
 */
import { createContext, useContext } from "react";

export type AccessPolicy = "open" | "members" | "private";

export interface ViewerSummary {
  email: string;
  role: "admin" | "member";
}

export interface RootAccess {
  viewer: ViewerSummary | null;
  policy: AccessPolicy;
  /** The session's CSRF token for forms (null when signed out). */
  csrf: string | null;
}

const SIGNED_OUT: RootAccess = { viewer: null, policy: "members", csrf: null };

/** The root layout provides it from its loader; outside a page (a component rendered alone) no one is signed in. */
export const AccessContext = createContext<RootAccess>(SIGNED_OUT);

export function useAccess(): RootAccess {
  return useContext(AccessContext);
}

/** "usable": the site's key runs it; "sign-in": it would, once signed in; "none": the site holds no key. */
export type ServerKeyState = "usable" | "sign-in" | "none";

export function serverKeyState(serverKey: boolean, access: RootAccess): ServerKeyState {
  if (!serverKey) return "none";
  return access.policy === "open" || access.viewer !== null ? "usable" : "sign-in";
}

export function useServerKeyState(serverKey: boolean): ServerKeyState {
  return serverKeyState(serverKey, useAccess());
}

/** The sign-in page, coming back to where the visitor is. */
export function signInHref(): string {
  if (typeof window === "undefined") return "/login";
  return `/login?redirectTo=${encodeURIComponent(window.location.pathname + window.location.search)}`;
}

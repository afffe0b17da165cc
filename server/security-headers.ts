import { randomFillSync } from "node:crypto";
import type { ServerResponse } from "node:http";

/**
 * The security headers every response carries, defined here and nowhere else
 * (docs/decisions/0013-security-headers.md). server/app.ts applies them before any route, so the
 * POST /api/inference fast path, static files, /api JSON and documents all get the same set.
 */

const NONCE_BYTES = 16;
// Drawn from the CSPRNG 256 nonces at a time, as Node does for randomUUID: one call per response
// showed up as about 1% of the event loop's time under mixed traffic. Each slice is used once.
const pool = Buffer.alloc(NONCE_BYTES * 256);
let next = pool.length;

/** 128 random bits, fresh per response: an attacker who injects markup cannot guess it. */
export function createNonce(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const nonce = pool.toString("base64", next, next + NONCE_BYTES);
  next += NONCE_BYTES;
  return nonce;
}

/**
 * Where a card's or task guide's media may come from: they embed images from anywhere on the web,
 * as the markdown sanitizer allows (http and https). An image can leak no more over http than over
 * https (cards' images are sent with no-referrer), and about one real card in fifty uses http.
 */
const REMOTE_MEDIA = ["https:", "http:"];

/** The only third-party frame: the task guides' click-to-play video (app/task-guides/task-video.tsx). */
const VIDEO_FRAME_ORIGIN = "https://www.youtube-nocookie.com";

/**
 * The page policy. Scripts run only from this origin or carry the response's nonce (React
 * Router's and React's inline scripts); there is no 'unsafe-inline' and no 'unsafe-eval' for
 * scripts. Styles allow inline attributes because shiki's highlighting and bar widths are
 * written as style="…", which cannot carry a nonce; CSS cannot run script, so that is the
 * accepted trade.
 */
export function contentSecurityPolicy(nonce: string): string {
  const directives: Record<string, readonly string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...REMOTE_MEDIA],
    "media-src": ["'self'", "data:", "blob:", ...REMOTE_MEDIA],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "frame-src": [VIDEO_FRAME_ORIGIN],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/**
 * Powerful features no page here uses, except the microphone, which the audio widgets record from
 * on this origin only (never in a frame of another). Only features Chromium recognises are
 * listed: an unknown one is logged as a console error on every page.
 */
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "magnetometer=()",
  "microphone=(self)",
  "midi=()",
  "payment=()",
  "serial=()",
  "usb=()",
].join(", ");

/** The full set for one response, as header name → value. */
export function securityHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    // frame-ancestors does the same for browsers that know CSP level 2.
    "X-Frame-Options": "DENY",
  };
}

/**
 * Sets the headers on `res` before anything is written and returns the nonce, which the
 * document render must put on its inline scripts. Later writeHead() calls merge with these.
 */
export function applySecurityHeaders(res: ServerResponse): string {
  const nonce = createNonce();
  for (const [name, value] of Object.entries(securityHeaders(nonce))) res.setHeader(name, value);
  return nonce;
}

/**
 * The visitor's provider token, kept in this browser's localStorage only: the settings page saves
 * it, the demos send it, and the snippets panel shows it in code. This module is the one place that
 * names the key and says what a token looks like.
 */
export const VISITOR_TOKEN_KEY = "modelyard.hfToken";

export function readVisitorToken(): string | null {
  try {
    const v = window.localStorage.getItem(VISITOR_TOKEN_KEY);
    return v && v.trim() !== "" ? v.trim() : null;
  } catch {
    return null;
  }
}

export function saveVisitorToken(token: string): void {
  window.localStorage.setItem(VISITOR_TOKEN_KEY, token.trim());
}

export function clearVisitorToken(): void {
  try {
    window.localStorage.removeItem(VISITOR_TOKEN_KEY);
  } catch {
    // storage disabled: nothing was saved
  }
}

/** What may be shown of a token: its first characters and the rest as dots. */
export function maskedToken(token: string): string {
  if (token.length <= 8) return "•".repeat(token.length);
  return `${token.slice(0, 5)}${"•".repeat(Math.min(24, token.length - 5))}`;
}

/** A plausible token: one word of 8–512 visible characters. Hugging Face tokens start with hf_. */
export function checkToken(value: string): { ok: true; isHf: boolean } | { ok: false; reason: string } {
  const v = value.trim();
  if (v === "") return { ok: false, reason: "Paste a token first." };
  if (/\s/.test(v)) return { ok: false, reason: "A token is one word, without spaces." };
  if (v.length < 8 || v.length > 512) return { ok: false, reason: "That does not look like a token (expected 8 to 512 characters)." };
  return { ok: true, isHf: v.startsWith("hf_") };
}

/**
 * A token the snippets panel may put into code: only hf_ tokens, for which the library's output
 * with the token equals its output with the hf_*** placeholder, placeholder replaced (the
 * placeholder is chosen to route the same way).
 */
export function isSnippetToken(value: string | null): value is string {
  return value !== null && /^hf_[A-Za-z0-9_.:-]{5,509}$/.test(value);
}

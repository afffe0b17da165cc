/**
 * The one scrubber of secrets: the gateway runs every log line and error message through it, and
 * the process's logger (app/utils/logger.server.ts) every line it writes.
 */
const REDACTED = "[redacted]";

// Token shapes worth scrubbing even when we do not know the exact value (a provider echoing a
// key back in an error body, for example): HF user/org tokens, OpenAI-style sk- keys, fal
// key id:secret pairs, and anything after "Bearer ".
// "Key" only as fal writes it, capitalised and before an id:secret pair: a case-blind "key"
// took ordinary words ("auth=server-provider-key stream=0").
const TOKEN_PATTERNS: RegExp[] = [
  /\bhf_[A-Za-z0-9]{6,}\b/g,
  /\bapi_org_[A-Za-z0-9]{6,}\b/g,
  /\bmyd_[A-Za-z0-9_-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{8,}\b/g,
  /\b(Bearer)\s+[^\s"',;]{4,}/gi,
  /(?<![\w-])(Key)\s+[^\s"',;:]{2,}:[^\s"',;]{2,}/g,
];

/** The exact secrets worth scrubbing, longest first (a secret inside another goes after it). */
function exactSecrets(secrets: ReadonlyArray<string | undefined>): string[] {
  return secrets.filter((s): s is string => typeof s === "string" && s.length >= 4).sort((a, b) => b.length - a.length);
}

function replaceExact(text: string, exact: readonly string[]): string {
  let out = text;
  for (const secret of exact) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

function replaceTokenShapes(text: string): string {
  let out = text;
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, (match, scheme: unknown) => (typeof scheme === "string" && /^(bearer|key)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  }
  return out;
}

/**
 * Removes the given secrets (exact values, longest first) and anything shaped like a token.
 * Secrets shorter than 4 characters are ignored: scrubbing "a" would mangle every message.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  return replaceTokenShapes(replaceExact(text, exactSecrets(secrets)));
}

/** Only the given secrets' exact values: for fields a later redactSecrets pass (the log's) also scans for token shapes. */
export function redactExactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  return replaceExact(text, exactSecrets(secrets));
}

/** redactSecrets with the secrets fixed once: the log's scrubber of every line. */
export function secretScrubber(secrets: ReadonlyArray<string | undefined>): (text: string) => string {
  const exact = exactSecrets(secrets);
  return (text) => replaceTokenShapes(replaceExact(text, exact));
}

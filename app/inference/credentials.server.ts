/**
 * Which token a gateway call uses, and scrubbing of every secret from text that may be logged or
 * shown. Order: the visitor's own provider token (`X-Provider-Token`), else, when the caller may
 * spend the server's keys (app/auth, ADR 0038), a server key for the exact provider
 * (MODELYARD_PROVIDER_KEY_<PROVIDER>), else HF_TOKEN (routed through the HF router).
 * `Authorization` carries only Modelyard API tokens, so the gateway never guesses which kind it got.
 * Tokens live only in the request's memory: never stored, never logged, never echoed.
 */

export type CredentialSource = "visitor" | "server-provider-key" | "server-hf-token" | "endpoint-key" | "none";

export interface Credential {
  token: string | undefined;
  source: CredentialSource;
}

export type EnvLike = Readonly<Record<string, string | undefined>>;

/** MODELYARD_PROVIDER_KEY_FIREWORKS_AI for "fireworks-ai". */
export function providerKeyVariable(provider: string): string {
  return `MODELYARD_PROVIDER_KEY_${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/** The visitor's provider token from `X-Provider-Token: <token>` (or `Bearer <token>`), or undefined when absent or malformed. */
export function visitorTokenFrom(headers: { get(name: string): string | null }): string | undefined {
  const value = headers.get("x-provider-token");
  if (!value) return undefined;
  const match = /^(?:Bearer\s+)?(\S+)\s*$/i.exec(value.trim());
  const token = match?.[1];
  if (!token || token === "undefined" || token === "null") return undefined;
  return token;
}

/** `serverKeys: false` leaves only the visitor's own token: the caller may not spend the server's. */
export function resolveCredential(opts: { visitorToken: string | undefined; provider: string | undefined; env: EnvLike; serverKeys?: boolean }): Credential {
  if (opts.visitorToken) return { token: opts.visitorToken, source: "visitor" };
  if (opts.serverKeys === false) return { token: undefined, source: "none" };
  if (opts.provider) {
    const key = nonEmpty(opts.env[providerKeyVariable(opts.provider)]);
    if (key) return { token: key, source: "server-provider-key" };
  }
  const hf = nonEmpty(opts.env["HF_TOKEN"]);
  if (hf) return { token: hf, source: "server-hf-token" };
  return { token: undefined, source: "none" };
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** Every secret the server itself holds, so log lines can be scrubbed of them too. */
export function serverSecrets(env: EnvLike): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (name === "HF_TOKEN" || name.startsWith("MODELYARD_PROVIDER_KEY_") || name.startsWith("MODELYARD_ENDPOINT_KEY_")) out.push(value);
  }
  return out;
}

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

/**
 * Removes the given secrets (exact values, longest first) and anything shaped like a token.
 * Secrets shorter than 4 characters are ignored: scrubbing "a" would mangle every message.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  const exact = secrets.filter((s): s is string => typeof s === "string" && s.length >= 4).sort((a, b) => b.length - a.length);
  for (const secret of exact) out = out.split(secret).join(REDACTED);
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, (match, scheme: unknown) => (typeof scheme === "string" && /^(bearer|key)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  }
  return out;
}

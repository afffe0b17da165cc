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

// The one scrubber, shared with the process's logger (app/utils/logger.server.ts).
export { redactSecrets } from "#app/utils/redact.server.ts";

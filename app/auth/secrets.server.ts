/**
 * The secrets sign-in hands out and how they are kept: random values shown once, stored only as
 * SHA-256 hashes (sessions, sign-in links, API tokens), and passwords hashed with scrypt, which is
 * memory-hard (ADR 0038).
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/** Every Modelyard API token starts with this, so it is never mistaken for a provider's token. */
export const API_TOKEN_PREFIX = "myd_";

/** A random value, URL-safe: 32 bytes (256 bits) unless asked otherwise. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A new API token and what is stored of it: the hash and a short prefix to recognise it by. */
export function newApiToken(): { token: string; hash: string; displayPrefix: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(30).toString("base64url")}`;
  return { token, hash: sha256Hex(token), displayPrefix: token.slice(0, API_TOKEN_PREFIX.length + 6) };
}

export function isApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX) && value.length > API_TOKEN_PREFIX.length + 16;
}

// OWASP's scrypt floor (N=2^17 is their first choice; 2^15 with r=8 costs 32 MiB and ~60 ms here,
// which keeps a burst of sign-ins from starving a 2-core server). Stored with the hash, so a
// stronger setting later still verifies older hashes.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, { N: n, r, p, maxmem: 256 * n * r }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scryptAsync(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p), expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Equal strings, compared in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

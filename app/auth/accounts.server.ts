/**
 * What people do with their accounts, shared by the pages and the CLI: an admin adds a person and
 * hands them a one-time sign-in link; the link sets a password; passwords sign in, throttled;
 * sessions live in the database, so every instance knows them and sign-out ends them everywhere.
 */
import { limitKeyOf } from "#app/auth/client-address.server.ts";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { AuthConfig } from "#app/auth/auth-config.server.ts";
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, newApiToken, randomSecret, sha256Hex, verifyPassword } from "#app/auth/secrets.server.ts";
import {
  consumeSignInLink,
  countAdmins,
  createUser,
  deleteSession,
  findUserRowByEmail,
  insertApiToken,
  insertSession,
  insertSignInLink,
  type Role,
  toUser,
  updateUser,
  type User,
  deleteUserSessions,
} from "#app/db/queries/accounts.server.ts";
import { addToCounter } from "#app/db/queries/usage.server.ts";
import type { Database } from "#app/db/schema.ts";
import { getEnv } from "#app/utils/env.server.ts";

export const emailSchema = z
  .string({ error: "e-mail is required" })
  .trim()
  .toLowerCase()
  .max(254, "e-mail is longer than 254 characters")
  .pipe(z.email({ error: "e-mail is not a valid address" }));

export const roleSchema = z.enum(["admin", "member"], { error: "role must be admin or member" });

export const passwordSchema = z
  .string({ error: "password is required" })
  .min(MIN_PASSWORD_LENGTH, `password must have at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `password must have at most ${MAX_PASSWORD_LENGTH} characters`);

export class AccountError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
    readonly status = 400,
  ) {
    super(message);
    this.name = "AccountError";
  }
}

const LINK_HOURS = 24;

/** A one-time link that signs its person in and lets them set a password, valid 24 h. */
export async function createSignInLink(db: Kysely<Database>, userId: string, baseUrl: string, now = Date.now()): Promise<{ url: string; expiresAt: string }> {
  const token = randomSecret();
  const expiresAt = new Date(now + LINK_HOURS * 3_600_000).toISOString();
  await insertSignInLink(db, { tokenHash: sha256Hex(token), userId, createdAt: new Date(now).toISOString(), expiresAt });
  return { url: `${baseUrl.replace(/\/+$/, "")}/invite/${token}`, expiresAt };
}

/**
 * Adds a person (or finds them, and gives them `role`) and makes them a one-time sign-in link.
 * `roleChanged` says an existing person's role was changed by it.
 */
export async function addPerson(
  db: Kysely<Database>,
  input: { email: string; role: Role },
  baseUrl: string,
): Promise<{ user: User; created: boolean; roleChanged: boolean; link: { url: string; expiresAt: string } }> {
  const email = emailSchema.parse(input.email);
  const now = new Date().toISOString();
  const existing = await findUserRowByEmail(db, email);
  let user: User;
  let roleChanged = false;
  if (existing) {
    user = toUser(existing);
    if (user.role !== input.role) {
      // Inviting the only enabled admin again as a member left the site with no admin at all: the
      // page's own "Set role" refuses that, and this path must too.
      if (user.role === "admin" && !user.disabled && (await countAdmins(db)) <= 1) {
        throw new AccountError(`${user.email} is the last admin: make someone else an admin first, or invite them again as an admin.`, "role");
      }
      await updateUser(db, user.id, { role: input.role });
      roleChanged = true;
      user = { ...user, role: input.role };
    }
  } else {
    user = await createUser(db, { email, role: input.role, now });
  }
  const link = await createSignInLink(db, user.id, baseUrl);
  return { user, created: !existing, roleChanged, link };
}

/** Sets the password of a link's person and uses the link up; false when it was already used or expired. */
export async function setPasswordWithLink(db: Kysely<Database>, linkToken: string, userId: string, password: string): Promise<boolean> {
  const hash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const used = await consumeSignInLink(trx, sha256Hex(linkToken), new Date().toISOString());
    if (!used) return false;
    await updateUser(trx, userId, { passwordHash: hash });
    // A new password (an admin's reset link) ends every session signed in with the old one; the
    // page that set it starts a new one. API tokens are credentials of their own and stay.
    await deleteUserSessions(trx, userId);
    return true;
  });
}

// Ten tries per e-mail from one address (an IPv6 /64) in 15 minutes: enough for typos, too few to
// guess a password. An e-mail's own limit, across addresses, is twenty times that, and an address
// adds to it only while its own limits hold: at ten, anyone locked a person out (the right password
// refused too) with eleven requests a quarter hour; now it takes twenty addresses.
const SIGN_IN_WINDOW_MS = 15 * 60_000;
const SIGN_IN_TRIES = 10;

/** The person, when the e-mail and password match; an AccountError (429 when throttled) otherwise. */
export async function signInWithPassword(db: Kysely<Database>, emailInput: string, password: string, address: string, now = Date.now()): Promise<User> {
  const email = emailSchema.safeParse(emailInput);
  if (!email.success) throw new AccountError("Enter the e-mail address you were invited with.", "email");
  const window = Math.floor(now / SIGN_IN_WINDOW_MS);
  const minutes = Math.ceil(((window + 1) * SIGN_IN_WINDOW_MS - now) / 60_000);
  const throttled = () => new AccountError(`Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or ask an admin for a new sign-in link.`, null, 429);
  const fromHere = await addToCounter(db, `signin:email-addr:${email.data}|${limitKeyOf(address)}`, window, 1);
  const byAddress = await addToCounter(db, `signin:addr:${limitKeyOf(address)}`, window, 1);
  if (fromHere > SIGN_IN_TRIES || byAddress > SIGN_IN_TRIES * 5) throw throttled();
  if ((await addToCounter(db, `signin:email:${email.data}`, window, 1)) > SIGN_IN_TRIES * 20) throw throttled();
  const row = await findUserRowByEmail(db, email.data);
  // The hash is checked even for an unknown e-mail, so the answer's timing does not say who exists.
  const ok = await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), row?.password_hash ?? "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  if (!row || !ok || row.password_hash === null) throw new AccountError("The e-mail or password is wrong.", "password");
  if (row.disabled === 1) throw new AccountError("This account is disabled. Ask an admin to enable it.", null, 403);
  return toUser(row);
}

export interface StartedSession {
  /** The Set-Cookie header that carries it. */
  cookie: string;
}

/**
 * A new session for the person, replacing the one the browser held (a session id never survives
 * a sign-in, so one planted before it is worthless after).
 */
export async function startSession(db: Kysely<Database>, user: User, config: AuthConfig, secure: boolean, previousId: string | null): Promise<StartedSession> {
  if (previousId) await deleteSession(db, sha256Hex(previousId));
  const id = randomSecret();
  const now = Date.now();
  const maxAge = config.sessionDays * 86_400;
  await insertSession(db, { idHash: sha256Hex(id), userId: user.id, createdAt: new Date(now).toISOString(), expiresAt: new Date(now + maxAge * 1000).toISOString() });
  await updateUser(db, user.id, { lastSignInAt: new Date(now).toISOString() });
  return { cookie: sessionCookie(id, maxAge, secure) };
}

export function sessionCookie(value: string, maxAge: number, secure: boolean): string {
  return `modelyard_session=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? "; Secure" : ""}`;
}

export const tokenInputSchema = z.object({
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name has at most 100 characters"),
  expiresInDays: z.number({ error: "expiry must be a whole number of days, or none" }).int("expiry must be a whole number of days").min(1, "expiry is at least 1 day").max(3650, "expiry is at most 3650 days").nullable(),
  scopes: z.array(z.enum(["read", "inference"], { error: "scopes are read and inference" })).min(1, "choose at least one scope"),
  rpm: z.number().int().min(1).max(1_000_000).nullable(),
  tokensPerDay: z.number().int().min(1).max(1_000_000_000_000).nullable(),
});

export type TokenInput = z.infer<typeof tokenInputSchema>;

/** A new personal API token; its value is returned once and only its hash is kept. */
export async function createPersonalToken(db: Kysely<Database>, userId: string, input: TokenInput): Promise<{ id: string; token: string; expiresAt: string | null }> {
  const { token, hash, displayPrefix } = newApiToken();
  const now = Date.now();
  const id = `tok_${randomSecret(9)}`;
  const expiresAt = input.expiresInDays === null ? null : new Date(now + input.expiresInDays * 86_400_000).toISOString();
  await insertApiToken(db, {
    id,
    user_id: userId,
    name: input.name,
    token_hash: hash,
    display_prefix: displayPrefix,
    scopes: [...new Set(input.scopes)].sort().join(","),
    rpm: input.rpm,
    tokens_per_day: input.tokensPerDay,
    created_at: new Date(now).toISOString(),
    expires_at: expiresAt,
    last_used_at: null,
    revoked_at: null,
  });
  return { id, token, expiresAt };
}

/** "30d", "12h" or "90": days (hours rounded up to a day). */
export function parseExpiry(value: string): number | null {
  const m = /^(\d{1,4})\s*([dh]?)$/i.exec(value.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const days = m[2]?.toLowerCase() === "h" ? Math.ceil(n / 24) : n;
  return days >= 1 && days <= 3650 ? days : null;
}

/** Where links point: MODELYARD_PUBLIC_URL, else the origin the request came to. */
export function siteOrigin(config: AuthConfig, requestUrl: string | null): string {
  if (config.publicUrl) return config.publicUrl;
  if (requestUrl) return new URL(requestUrl).origin;
  return `http://localhost:${getEnv().PORT}`;
}

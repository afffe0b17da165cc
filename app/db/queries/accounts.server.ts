/**
 * People, sessions, one-time sign-in links and API tokens (migration 0009, ADR 0038). Only hashes
 * of secrets reach these functions; the values themselves never touch the database.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { ApiTokensTable, Database, UsersTable } from "#app/db/schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export type Role = "admin" | "member";
export type UserRow = Selectable<UsersTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;

export interface User {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  disabled: boolean;
  hasPassword: boolean;
  oidc: boolean;
  quotaRpm: number | null;
  quotaTokensPerDay: number | null;
  createdAt: string;
  lastSignInAt: string | null;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role === "admin" ? "admin" : "member",
    disabled: row.disabled === 1,
    hasPassword: row.password_hash !== null,
    oidc: row.oidc_subject !== null,
    quotaRpm: row.quota_rpm,
    quotaTokensPerDay: row.quota_tokens_per_day === null ? null : Number(row.quota_tokens_per_day),
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

export async function createUser(db: Db, input: { email: string; role: Role; name?: string | null; oidcSubject?: string | null; now: string }): Promise<User> {
  const row: UserRow = {
    id: randomUUID(),
    email: input.email,
    name: input.name ?? null,
    role: input.role,
    disabled: 0,
    password_hash: null,
    oidc_subject: input.oidcSubject ?? null,
    quota_rpm: null,
    quota_tokens_per_day: null,
    created_at: input.now,
    last_sign_in_at: null,
  };
  await db.insertInto("users").values(row).execute();
  return toUser(row);
}

export async function findUserRowByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toUser(row) : undefined;
}

export async function findUserByOidcSubject(db: Db, subject: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("oidc_subject", "=", subject).executeTakeFirst();
  return row ? toUser(row) : undefined;
}

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** People, or those whose e-mail holds `emailHas` (case folded); e-mails are stored lower-cased. */
function usersWhere(db: Db, emailHas: string | undefined) {
  const q = db.selectFrom("users");
  return emailHas ? q.where(sql<boolean>`email like ${containing(emailHas)} escape '\\'`) : q;
}

export async function countUsers(db: Db, emailHas?: string): Promise<number> {
  const row = await usersWhere(db, emailHas)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", "admin")
    .where("disabled", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of people, by e-mail. */
export async function listUsers(db: Db, page: { offset: number; limit: number; emailHas?: string }): Promise<User[]> {
  const rows = await usersWhere(db, page.emailHas).selectAll().orderBy("email").offset(page.offset).limit(page.limit).execute();
  return rows.map(toUser);
}

export async function updateUser(
  db: Db,
  id: string,
  patch: Partial<{ role: Role; disabled: boolean; name: string | null; passwordHash: string; oidcSubject: string; quotaRpm: number | null; quotaTokensPerDay: number | null; lastSignInAt: string }>,
): Promise<void> {
  const set: Partial<UserRow> = {};
  if (patch.role !== undefined) set.role = patch.role;
  if (patch.disabled !== undefined) set.disabled = patch.disabled ? 1 : 0;
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash;
  if (patch.oidcSubject !== undefined) set.oidc_subject = patch.oidcSubject;
  if (patch.quotaRpm !== undefined) set.quota_rpm = patch.quotaRpm;
  if (patch.quotaTokensPerDay !== undefined) set.quota_tokens_per_day = patch.quotaTokensPerDay;
  if (patch.lastSignInAt !== undefined) set.last_sign_in_at = patch.lastSignInAt;
  if (Object.keys(set).length === 0) return;
  await db.updateTable("users").set(set).where("id", "=", id).execute();
}

// Sessions

export async function insertSession(db: Db, session: { idHash: string; userId: string; createdAt: string; expiresAt: string }): Promise<void> {
  await db.insertInto("sessions").values({ id_hash: session.idHash, user_id: session.userId, created_at: session.createdAt, expires_at: session.expiresAt }).execute();
}

/** The signed-in person behind a session, unless it expired or they were disabled. */
export async function findSessionUser(db: Db, idHash: string, now: string): Promise<User | undefined> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .where("sessions.id_hash", "=", idHash)
    .where("sessions.expires_at", ">", now)
    .where("users.disabled", "=", 0)
    .executeTakeFirst();
  return row ? toUser(row) : undefined;
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
}

export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const result = await db.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteExpiredSessions(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// One-time sign-in links

export async function insertSignInLink(db: Db, link: { tokenHash: string; userId: string; createdAt: string; expiresAt: string }): Promise<void> {
  await db.insertInto("sign_in_links").values({ token_hash: link.tokenHash, user_id: link.userId, created_at: link.createdAt, expires_at: link.expiresAt, used_at: null }).execute();
}

/** The link's person if it is unused and unexpired, without using it up (the page shows the form first). */
export async function peekSignInLink(db: Db, tokenHash: string, now: string): Promise<User | undefined> {
  const row = await db
    .selectFrom("sign_in_links")
    .innerJoin("users", "users.id", "sign_in_links.user_id")
    .selectAll("users")
    .where("sign_in_links.token_hash", "=", tokenHash)
    .where("sign_in_links.used_at", "is", null)
    .where("sign_in_links.expires_at", ">", now)
    .where("users.disabled", "=", 0)
    .executeTakeFirst();
  return row ? toUser(row) : undefined;
}

/** Uses the link up; true only for the one request that did (a second instance racing it gets false). */
export async function consumeSignInLink(db: Db, tokenHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("sign_in_links")
    .set({ used_at: now })
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// API tokens

export async function insertApiToken(db: Db, token: ApiTokenRow): Promise<void> {
  await db.insertInto("api_tokens").values(token).execute();
}

/** A live token and its owner: not revoked, not expired, owner not disabled. */
export async function findLiveApiToken(db: Db, tokenHash: string, now: string): Promise<{ token: ApiTokenRow; user: User } | undefined> {
  const token = await db.selectFrom("api_tokens").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
  if (!token || token.revoked_at !== null || (token.expires_at !== null && token.expires_at <= now)) return undefined;
  const user = await db.selectFrom("users").selectAll().where("id", "=", token.user_id).where("disabled", "=", 0).executeTakeFirst();
  return user ? { token, user: toUser(user) } : undefined;
}

export async function touchApiToken(db: Db, id: string, now: string): Promise<void> {
  await db.updateTable("api_tokens").set({ last_used_at: now }).where("id", "=", id).execute();
}

export interface ApiTokenListing extends ApiTokenRow {
  email: string;
}

/** Tokens, newest first: one person's, or everyone's (for admins). */
export async function listApiTokens(db: Db, filter: { userId?: string; offset: number; limit: number }): Promise<ApiTokenListing[]> {
  let q = db.selectFrom("api_tokens").innerJoin("users", "users.id", "api_tokens.user_id").selectAll("api_tokens").select("users.email");
  if (filter.userId !== undefined) q = q.where("api_tokens.user_id", "=", filter.userId);
  return q.orderBy("api_tokens.created_at", "desc").orderBy("api_tokens.id").offset(filter.offset).limit(filter.limit).execute();
}

export async function findApiToken(db: Db, id: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Revokes a token (one person's own, when userId is given); true when it was live. */
export async function revokeApiToken(db: Db, id: string, now: string, userId?: string): Promise<boolean> {
  let q = db.updateTable("api_tokens").set({ revoked_at: now }).where("id", "=", id).where("revoked_at", "is", null);
  if (userId !== undefined) q = q.where("user_id", "=", userId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countApiTokens(db: Db, filter: { userId?: string }): Promise<number> {
  let q = db.selectFrom("api_tokens").select((eb) => eb.fn.countAll<number>().as("n"));
  if (filter.userId !== undefined) q = q.where("user_id", "=", filter.userId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

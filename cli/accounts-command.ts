/**
 * `modelyard users …` and `modelyard tokens …`: the first admin, and tokens for scripts, from the
 * shell of the machine that holds the database (ADR 0038). They use the same account code as the
 * pages, so a link or token made here works on every instance.
 */
import { parseArgs } from "node:util";
import { AccountError, addPerson, createPersonalToken, parseExpiry, roleSchema, siteOrigin, tokenInputSchema } from "#app/auth/accounts.server.ts";
import { readAuthConfig } from "#app/auth/auth-config.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { openMigratedDatabase } from "#app/db/migrate.server.ts";
import { findApiToken, findUserRowByEmail, listApiTokens, listUsers, revokeApiToken } from "#app/db/queries/accounts.server.ts";
import { configEnv, getEnv } from "#app/utils/env.server.ts";

const SEE_HELP = "Run `modelyard help` for the accounts commands.";

async function withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const { handle } = await openMigratedDatabase(getEnv().DATABASE_URL);
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

function fail(message: string): number {
  console.error(message);
  return 2;
}

const positiveInt = (value: string | undefined, flag: string): number | null | Error => {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : new Error(`${flag} must be a whole number of at least 1, got '${value}'`);
};

export async function runUsers(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const config = readAuthConfig(configEnv());
  if (sub === "add") {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { role: { type: "string", default: "member" } } });
    const [email] = positionals;
    if (!email || positionals.length > 1) return fail(`Usage: modelyard users add <email> [--role admin|member]`);
    const role = roleSchema.safeParse(values.role);
    if (!role.success) return fail(`--role must be admin or member, got '${values.role}'`);
    return withDatabase(async ({ db }) => {
      let result;
      try {
        result = await addPerson(db, { email, role: role.data }, siteOrigin(config, null));
      } catch (error) {
        if (error instanceof AccountError) return fail(error.message);
        return fail(error instanceof Error && "issues" in error ? `'${email}' is not a valid e-mail address.` : String(error));
      }
      console.log(`${result.created ? "Added" : "Found"} ${result.user.email} (${result.user.role}).`);
      console.log(`One-time sign-in link, valid until ${result.link.expiresAt} (it sets a password; share it privately):`);
      console.log(result.link.url);
      if (!config.publicUrl) console.log("(Set MODELYARD_PUBLIC_URL to the address people reach this server at, so links point there.)");
      return 0;
    });
  }
  if (sub === "list") {
    return withDatabase(async ({ db }) => {
      const users = await listUsers(db, { offset: 0, limit: 10_000 });
      if (users.length === 0) console.log("No accounts yet. Add the first admin: modelyard users add <email> --role admin");
      for (const u of users) console.log(`${u.email}\t${u.role}${u.disabled ? "\tdisabled" : ""}\t${u.hasPassword ? "password" : ""}${u.oidc ? " oidc" : ""}`);
      return 0;
    });
  }
  return fail(`Unknown users command '${sub ?? ""}'.\n${SEE_HELP}`);
}

export async function runTokens(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "create") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { name: { type: "string" }, expires: { type: "string" }, rpm: { type: "string" }, "tokens-per-day": { type: "string" }, scopes: { type: "string", default: "read,inference" } },
    });
    const [email] = positionals;
    if (!email || !values.name) return fail("Usage: modelyard tokens create <email> --name <name> [--expires 30d] [--rpm N] [--tokens-per-day N]");
    const expires = values.expires === undefined ? null : parseExpiry(values.expires);
    if (values.expires !== undefined && expires === null) return fail(`--expires must be days or hours, like 30d or 12h (at most 3650 days), got '${values.expires}'`);
    const rpm = positiveInt(values.rpm, "--rpm");
    const perDay = positiveInt(values["tokens-per-day"], "--tokens-per-day");
    if (rpm instanceof Error) return fail(rpm.message);
    if (perDay instanceof Error) return fail(perDay.message);
    const input = tokenInputSchema.safeParse({ name: values.name, expiresInDays: expires, scopes: values.scopes.split(",").map((s) => s.trim()), rpm, tokensPerDay: perDay });
    if (!input.success) return fail(input.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    return withDatabase(async ({ db }) => {
      const user = await findUserRowByEmail(db, email.trim().toLowerCase());
      if (!user) return fail(`No account for ${email}. Add it first: modelyard users add ${email}`);
      const created = await createPersonalToken(db, user.id, input.data);
      console.log(`Created token ${created.id} for ${user.email}${created.expiresAt ? `, expires ${created.expiresAt}` : ", no expiry"}. It is shown once:`);
      console.log(created.token);
      return 0;
    });
  }
  if (sub === "list") {
    const [email] = rest;
    return withDatabase(async ({ db }) => {
      let userId: string | undefined;
      if (email) {
        const user = await findUserRowByEmail(db, email.trim().toLowerCase());
        if (!user) return fail(`No account for ${email}.`);
        userId = user.id;
      }
      const tokens = await listApiTokens(db, { userId, offset: 0, limit: 100_000 });
      if (tokens.length === 0) console.log("No tokens.");
      const now = new Date().toISOString();
      for (const t of tokens) {
        const state = t.revoked_at ? "revoked" : t.expires_at && t.expires_at <= now ? "expired" : "live";
        console.log(`${t.id}\t${t.email}\t${t.name}\t${t.display_prefix}…\t${t.scopes}\t${state}\tlast used ${t.last_used_at ?? "never"}`);
      }
      return 0;
    });
  }
  if (sub === "revoke") {
    const [id] = rest;
    if (!id) return fail("Usage: modelyard tokens revoke <id>");
    return withDatabase(async ({ db }) => {
      if (!(await findApiToken(db, id))) return fail(`No token ${id}. List them with: modelyard tokens list`);
      const revoked = await revokeApiToken(db, id, new Date().toISOString());
      console.log(revoked ? `Revoked ${id}.` : `${id} was already revoked.`);
      return 0;
    });
  }
  return fail(`Unknown tokens command '${sub ?? ""}'.\n${SEE_HELP}`);
}

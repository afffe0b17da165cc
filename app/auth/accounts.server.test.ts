import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessDenied, admitRequest, identify, limitsOf, reserveTokens, settleTokens, type Caller, type TokenReservation } from "#app/auth/access.server.ts";
import { AccountError, addPerson, createPersonalToken, parseExpiry, setPasswordWithLink, signInWithPassword, startSession } from "#app/auth/accounts.server.ts";
import { readAuthConfig } from "#app/auth/auth-config.server.ts";
import { pruneAccountData } from "#app/auth/housekeeping.server.ts";
import { hashPassword, verifyPassword } from "#app/auth/secrets.server.ts";
import { countUsers, findUserById, listUsers, revokeApiToken, updateUser } from "#app/db/queries/accounts.server.ts";
import { addToCounter, readCounter } from "#app/db/queries/usage.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

const headers = (h: Record<string, string>) => new Headers(h);

describe("passwords", () => {
  it("hashes with scrypt and a salt of its own, and verifies only the right password", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterz", a)).toBe(false);
    expect(await verifyPassword("x", "not-a-hash")).toBe(false);
  });

  it("reads token expiries as days or hours", () => {
    expect(parseExpiry("30d")).toBe(30);
    expect(parseExpiry("12h")).toBe(1);
    expect(parseExpiry("90")).toBe(90);
    expect(parseExpiry("0d")).toBeNull();
    expect(parseExpiry("soon")).toBeNull();
  });
});

describe.each(testDialects())("accounts, sessions, tokens and quotas on $name", (dialect) => {
  let t: TestDatabase;
  const config = readAuthConfig({ MODELYARD_MEMBER_RPM: "3", MODELYARD_MEMBER_TOKENS_PER_DAY: "100" });

  beforeAll(async () => {
    t = await dialect.create();
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("invites a person with a one-time link that sets a password once", async () => {
    const db = t.handle.db;
    const { user, link, created } = await addPerson(db, { email: " Ada@Example.COM ", role: "member" }, "http://modelyard.test");
    expect(created).toBe(true);
    expect(user.email).toBe("ada@example.com");
    expect(link.url).toMatch(/^http:\/\/modelyard\.test\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = link.url.split("/").pop()!;
    const [first, second] = await Promise.all([setPasswordWithLink(db, token, user.id, "a long enough password"), setPasswordWithLink(db, token, user.id, "another long password")]);
    expect([first, second].sort()).toEqual([false, true]);
    const signedIn = await signInWithPassword(db, "ADA@example.com", first ? "a long enough password" : "another long password", "10.0.0.1");
    expect(signedIn.id).toBe(user.id);
    await expect(signInWithPassword(db, "ada@example.com", "wrong password!!", "10.0.0.1")).rejects.toThrow("The e-mail or password is wrong.");
    await expect(signInWithPassword(db, "nobody@example.com", "whatever password", "10.0.0.1")).rejects.toThrow("The e-mail or password is wrong.");
  });

  it("finds people by part of their e-mail, case folded, with % and _ taken as themselves", async () => {
    const db = t.handle.db;
    for (const email of ["x_1@find.test", "xa1@find.test", "Boss@Find.Test", "someone@else.test"]) await addPerson(db, { email, role: "member" }, "http://modelyard.test");
    const found = async (emailHas: string) => (await listUsers(db, { offset: 0, limit: 50, emailHas })).map((u) => u.email);
    expect(await found("FIND.test")).toEqual(["boss@find.test", "x_1@find.test", "xa1@find.test"]);
    expect(await countUsers(db, "find.test")).toBe(3);
    // Unescaped, "_" would match any one character and "%" every address.
    expect(await found("x_")).toEqual(["x_1@find.test"]);
    expect(await found("%")).toEqual([]);
    expect(await countUsers(db, "%")).toBe(0);
    expect(await listUsers(db, { offset: 1, limit: 1, emailHas: "find.test" })).toHaveLength(1);
    expect(await countUsers(db)).toBeGreaterThanOrEqual(4);
    expect(await found("x")).not.toContain("someone@else.test");
  });

  it("throttles password guesses per e-mail from one address, and more loosely across addresses, without locking the person out", async () => {
    const db = t.handle.db;
    const { user, link } = await addPerson(db, { email: "bob@example.com", role: "member" }, "http://x");
    expect(await setPasswordWithLink(db, link.url.split("/").pop()!, user.id, "bob's real password")).toBe(true);
    // One fixed moment, inside one 15-minute window.
    const now = Date.UTC(2026, 10, 28, 12, 1, 0);
    const attempts: string[] = [];
    const outcome = (p: Promise<unknown>) => p.then(() => "ok", (error: unknown) => (error instanceof AccountError ? String(error.status) : "other"));
    for (let i = 0; i < 12; i++) attempts.push(await outcome(signInWithPassword(db, "bob@example.com", `guess number ${i}`, "10.0.1.1", now)));
    expect(attempts.slice(0, 10).every((s) => s === "400")).toBe(true);
    expect(attempts.slice(10)).toEqual(["429", "429"]);
    // The guesser's address is held back, even with the right password; Bob, elsewhere, is not.
    expect(await outcome(signInWithPassword(db, "bob@example.com", "bob's real password", "10.0.1.1", now))).toBe("429");
    expect(await outcome(signInWithPassword(db, "bob@example.com", "bob's real password", "10.0.2.2", now))).toBe("ok");
    // The guesser's throttled tries did not count for the e-mail: ten did, and Bob's one.
    expect(await readCounter(db, "signin:email:bob@example.com", Math.floor(now / (15 * 60_000)))).toBe(11);
    // Across addresses the e-mail's own limit is two hundred tries: 189 more from many addresses pass it.
    await addToCounter(db, "signin:email:bob@example.com", Math.floor(now / (15 * 60_000)), 189);
    expect(await outcome(signInWithPassword(db, "bob@example.com", "bob's real password", "10.0.3.3", now))).toBe("429");
  });

  it("knows a session on any connection to the database, and a disabled person's session no longer counts", async () => {
    const db = t.handle.db;
    const { user } = await addPerson(db, { email: "carol@example.com", role: "admin" }, "http://x");
    const session = await startSession(db, user, config, false, null);
    expect(session.cookie).toMatch(/^modelyard_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const cookie = session.cookie.split(";")[0]!;
    const caller = await identify(db, headers({ cookie }), "10.0.0.2");
    expect(caller).toMatchObject({ kind: "session", user: { email: "carol@example.com", role: "admin" } });
    await updateUser(db, user.id, { disabled: true });
    expect((await identify(db, headers({ cookie }), "10.0.0.2")).kind).toBe("anonymous");
    await updateUser(db, user.id, { disabled: false });
    // A session started again replaces the one the browser held.
    const again = await startSession(db, user, config, true, cookie.split("=")[1]!);
    expect(again.cookie).toContain("; Secure");
    expect((await identify(db, headers({ cookie }), "10.0.0.2")).kind).toBe("anonymous");
  });

  it("ends every session signed in with the old password once a link sets a new one", async () => {
    const db = t.handle.db;
    const { user } = await addPerson(db, { email: "erin@example.com", role: "member" }, "http://x");
    const cookie = (await startSession(db, user, config, false, null)).cookie.split(";")[0]!;
    expect((await identify(db, headers({ cookie }), "10.0.0.4")).kind).toBe("session");
    // An admin's reset: a new link for the same person.
    const reset = await addPerson(db, { email: "erin@example.com", role: "member" }, "http://x");
    expect(reset.created).toBe(false);
    expect(await setPasswordWithLink(db, reset.link.url.split("/").pop()!, user.id, "a brand new password")).toBe(true);
    expect((await identify(db, headers({ cookie }), "10.0.0.4")).kind).toBe("anonymous");
  });

  it("accepts a live API token, and refuses revoked, unknown and provider tokens with 401", async () => {
    const db = t.handle.db;
    const { user } = await addPerson(db, { email: "dan@example.com", role: "member" }, "http://x");
    const made = await createPersonalToken(db, user.id, { name: "ci", expiresInDays: 30, scopes: ["inference"], rpm: 2, tokensPerDay: null });
    expect(made.token).toMatch(/^myd_/);
    const caller = await identify(db, headers({ authorization: `Bearer ${made.token}` }), "10.0.0.3");
    expect(caller).toMatchObject({ kind: "token", user: { id: user.id }, token: { id: made.id, scopes: "inference" } });
    const stored = await db.selectFrom("api_tokens").selectAll().where("id", "=", made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.token);
    expect(stored.last_used_at).not.toBeNull();
    await expect(identify(db, headers({ authorization: "Bearer hf_providerToken123" }), "x")).rejects.toThrow(/X-Provider-Token/);
    await expect(identify(db, headers({ authorization: `Bearer ${made.token}x` }), "x")).rejects.toThrow(/not valid/);
    await revokeApiToken(db, made.id, new Date().toISOString());
    await expect(identify(db, headers({ authorization: `Bearer ${made.token}` }), "x")).rejects.toBeInstanceOf(AccessDenied);
  });

  it("counts a quota of N requests a minute in the database: N pass, the next is a 429 with Retry-After", async () => {
    const db = t.handle.db;
    const { user } = await addPerson(db, { email: "erin@example.com", role: "member" }, "http://x");
    const caller: Caller = { kind: "session", address: "10.0.0.4", user: (await findUserById(db, user.id))! };
    const now = Date.UTC(2026, 10, 28, 12, 0, 10);
    const outcomes: Array<number | string> = [];
    for (let i = 0; i < 5; i++) {
      try {
        await admitRequest(db, caller, config, now + i);
        outcomes.push("ok");
      } catch (error) {
        outcomes.push(error instanceof AccessDenied ? error.status : "other");
        if (error instanceof AccessDenied) expect(error.extra.retryAfterSec).toBe(50);
      }
    }
    expect(outcomes).toEqual(["ok", "ok", "ok", 429, 429]);
    // Just past the minute, most of the last minute still counts: a burst across the edge cannot pass twice.
    await expect(admitRequest(db, caller, config, now + 60_000)).rejects.toBeInstanceOf(AccessDenied);
  });

  it("charges tokens by the day and refuses once a day's budget is used", async () => {
    const db = t.handle.db;
    const { user } = await addPerson(db, { email: "fay@example.com", role: "member" }, "http://x");
    const caller: Caller = { kind: "session", address: "10.0.0.5", user: (await findUserById(db, user.id))! };
    const now = Date.UTC(2026, 10, 28, 23, 0, 0);
    const held = await reserveTokens(db, caller, config, 40, now);
    await settleTokens(db, caller, held, 100, config, now);
    expect(await readCounter(db, limitsOf(caller, config).tokensPerDay[0]!.key, Math.floor(now / 86_400_000))).toBe(100);
    const refused = await reserveTokens(db, caller, config, 0, now + 1000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AccessDenied);
    expect((refused as AccessDenied).code).toBe("quota_exceeded");
    expect((refused as AccessDenied).message).toMatch(/is used up/);
    expect((refused as AccessDenied).extra.retryAfterSec).toBe(3599);
  });

  it("reserves a call's worst case atomically: parallel calls past the quota are refused, and settling leaves only the real charges", async () => {
    const db = t.handle.db;
    const { user } = await addPerson(db, { email: "gus@example.com", role: "member" }, "http://x");
    // The person's quota is 100 a day (config); the token's own is 70.
    const made = await createPersonalToken(db, user.id, { name: "small", expiresInDays: null, scopes: ["inference"], rpm: null, tokensPerDay: 70 });
    const caller = await identify(db, headers({ authorization: `Bearer ${made.token}` }), "10.0.0.6");
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    const day = Math.floor(now / 86_400_000);
    const tried = await Promise.all(Array.from({ length: 40 }, () => reserveTokens(db, caller, config, 30, now).catch((e: unknown) => e)));
    const held = tried.filter((r): r is TokenReservation => r !== null && !(r instanceof Error));
    const refused = tried.filter((r) => r instanceof AccessDenied);
    // 70 holds two calls of 30, whichever engine and however the 40 interleave.
    expect(held).toHaveLength(2);
    expect(refused).toHaveLength(38);
    expect((refused[0] as AccessDenied).code).toBe("quota_exceeded");
    expect(await readCounter(db, `tokens:token:${made.id}`, day)).toBe(60);
    // The token's refusal gave back what the person's counter had held for it.
    expect(await readCounter(db, `tokens:user:${user.id}`, day)).toBe(60);
    // One call cost 12, the other failed: only the 12 is left.
    await Promise.all([settleTokens(db, caller, held[0]!, 12, config, now), settleTokens(db, caller, held[1]!, 0, config, now)]);
    expect(await readCounter(db, `tokens:token:${made.id}`, day)).toBe(12);
    expect(await readCounter(db, `tokens:user:${user.id}`, day)).toBe(12);
    // A call that ends after midnight gives back the day it held, and is charged to the next.
    const late = await reserveTokens(db, caller, config, 50, now);
    await settleTokens(db, caller, late, 8, config, now + 86_400_000);
    expect(await readCounter(db, `tokens:token:${made.id}`, day)).toBe(12);
    expect(await readCounter(db, `tokens:token:${made.id}`, day + 1)).toBe(8);
    const tooBig = await reserveTokens(db, caller, config, 59, now).catch((e: unknown) => e);
    expect((tooBig as AccessDenied).message).toMatch(/has 58 left, and this call may use up to 59/);
  });

  it("prunes usage records past their retention, ended sessions and spent windows, and keeps the rest", async () => {
    const db = t.handle.db;
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    const record = (at: string) => ({ at, day: at.slice(0, 10), user_id: null, token_id: null, subject: "anonymous", model: null, provider: null, task: null, paid_by: "none", status: 401, duration_ms: 1, ttft_ms: null, tokens_in: null, tokens_out: null, bill_to: null });
    await db.deleteFrom("usage_records").execute();
    await db.insertInto("usage_records").values([record("2026-08-01T00:00:00.000Z"), record("2026-11-27T00:00:00.000Z")]).execute();
    await db.insertInto("rate_counters").values([{ key: "rpm:user:x", window_start: Math.floor(now / 60_000) - 10, count: 5 }, { key: "rpm:user:x", window_start: Math.floor(now / 60_000), count: 1 }]).execute();
    const pruned = await pruneAccountData(db, now);
    expect(pruned.usage).toBe(1);
    expect((await db.selectFrom("usage_records").select("at").execute()).map((r) => r.at)).toEqual(["2026-11-27T00:00:00.000Z"]);
    expect((await db.selectFrom("rate_counters").select("window_start").where("key", "=", "rpm:user:x").execute()).map((r) => Number(r.window_start))).toEqual([Math.floor(now / 60_000)]);
  });
});

describe.each(testDialects())("inviting someone again on $name", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await dialect.create();
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("changes the role of a person invited again, but never leaves the site without an enabled admin", async () => {
    const db = t.handle.db;
    const { user: first } = await addPerson(db, { email: "first@example.com", role: "admin" }, "http://x");
    // The only admin invited again as a member: refused, and still an admin.
    await expect(addPerson(db, { email: "first@example.com", role: "member" }, "http://x")).rejects.toThrow("first@example.com is the last admin");
    expect((await findUserById(db, first.id))?.role).toBe("admin");
    // The same invitation with the same role is a new link and no change.
    const again = await addPerson(db, { email: "first@example.com", role: "admin" }, "http://x");
    expect(again).toMatchObject({ created: false, roleChanged: false, user: { role: "admin" } });
    // A disabled second admin does not count: the first is still the last one.
    const { user: second } = await addPerson(db, { email: "second@example.com", role: "admin" }, "http://x");
    await updateUser(db, second.id, { disabled: true });
    await expect(addPerson(db, { email: "first@example.com", role: "member" }, "http://x")).rejects.toBeInstanceOf(AccountError);
    // Once another admin is enabled, the first may become a member, and the result says so.
    await updateUser(db, second.id, { disabled: false });
    const demoted = await addPerson(db, { email: "first@example.com", role: "member" }, "http://x");
    expect(demoted).toMatchObject({ created: false, roleChanged: true, user: { role: "member" } });
    expect((await findUserById(db, first.id))?.role).toBe("member");
  });
});

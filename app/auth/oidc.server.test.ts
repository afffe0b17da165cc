import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAuthConfig } from "#app/auth/auth-config.server.ts";
import { OidcRefused, accountForIdentity } from "#app/auth/oidc.server.ts";
import { createUser, findUserRowByEmail } from "#app/db/queries/accounts.server.ts";
import { type TestDatabase, testDialects } from "#tests/support/test-databases.ts";

describe.each(testDialects())("OpenID Connect accounts on $name", (dialect) => {
  let t: TestDatabase;
  const config = readAuthConfig({
    MODELYARD_OIDC_ISSUER: "http://idp.test",
    MODELYARD_OIDC_CLIENT_ID: "modelyard",
    MODELYARD_OIDC_CLIENT_SECRET: "a-client-secret-0123456789",
    MODELYARD_OIDC_ALLOWED: "corp.example",
    MODELYARD_ADMIN_EMAILS: "boss@corp.example",
  });
  const now = new Date().toISOString();

  beforeAll(async () => {
    t = await dialect.create();
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  it("links an invited person's account by e-mail only when the provider verified the address", async () => {
    const db = t.handle.db;
    await createUser(db, { email: "ada@example.com", role: "admin", now });
    const forged = { subject: "http://idp.test|attacker", email: "ada@example.com", emailVerified: false, name: "Ada?" };
    await expect(accountForIdentity(db, config, forged)).rejects.toThrow(OidcRefused);
    await expect(accountForIdentity(db, config, forged)).rejects.toThrow("did not say it verified ada@example.com");
    // The sign-in page is told only the code, which it words itself.
    await expect(accountForIdentity(db, config, forged)).rejects.toMatchObject({ code: "email_verified_missing" });
    expect((await findUserRowByEmail(db, "ada@example.com"))?.oidc_subject).toBeNull();

    const real = await accountForIdentity(db, config, { subject: "http://idp.test|ada", email: "ada@example.com", emailVerified: true, name: "Ada" });
    expect(real.role).toBe("admin");
    expect((await findUserRowByEmail(db, "ada@example.com"))?.oidc_subject).toBe("http://idp.test|ada");
  });

  it("lets no unverified address through the allow-list or the admin list", async () => {
    const db = t.handle.db;
    await expect(accountForIdentity(db, config, { subject: "http://idp.test|x", email: "someone@corp.example", emailVerified: false, name: null })).rejects.toThrow(OidcRefused);
    await expect(accountForIdentity(db, config, { subject: "http://idp.test|y", email: "boss@corp.example", emailVerified: false, name: null })).rejects.toThrow(OidcRefused);
    await expect(accountForIdentity(db, config, { subject: "http://idp.test|z", email: "someone@elsewhere.example", emailVerified: true, name: null })).rejects.toMatchObject({ code: "not_allowed" });
    expect(await findUserRowByEmail(db, "someone@corp.example")).toBeUndefined();
    expect(await findUserRowByEmail(db, "boss@corp.example")).toBeUndefined();
    const member = await accountForIdentity(db, config, { subject: "http://idp.test|x", email: "someone@corp.example", emailVerified: true, name: null });
    expect(member.role).toBe("member");
  });

  it("knows a returning person by subject, and makes no one admin by an unverified address", async () => {
    const db = t.handle.db;
    await createUser(db, { email: "boss@corp.example", role: "member", oidcSubject: "http://idp.test|boss", now });
    const back = await accountForIdentity(db, config, { subject: "http://idp.test|boss", email: "boss@corp.example", emailVerified: false, name: null });
    expect(back.role).toBe("member");
    const verified = await accountForIdentity(db, config, { subject: "http://idp.test|boss", email: "boss@corp.example", emailVerified: true, name: null });
    expect(verified.role).toBe("admin");
  });
});

/**
 * Sign-in through any OpenID Connect provider (Keycloak, Authentik, Google, Entra): the
 * authorization code flow with PKCE, state and nonce, through `openid-client`, a certified
 * relying-party library. The flow's secrets wait in a short-lived HttpOnly cookie on the browser
 * that started it, so any instance can finish it (ADR 0038).
 */
import * as client from "openid-client";
import type { Kysely } from "kysely";
import { type AuthConfig, emailAllowed, type OidcConfig } from "#app/auth/auth-config.server.ts";
import type { SignInErrorCode } from "#app/auth/sign-in-errors.ts";
import { createUser, findUserByOidcSubject, findUserRowByEmail, toUser, updateUser, type User } from "#app/db/queries/accounts.server.ts";
import type { Database } from "#app/db/schema.ts";

export const OIDC_COOKIE = "modelyard_oidc";
const FLOW_SECONDS = 600;

let discovered: { key: string; config: Promise<client.Configuration> } | null = null;

/** Plain http only to this machine (a provider started by the tests, a local Keycloak). */
function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]");
}

/** The provider's metadata, fetched once per process; a failed discovery is retried on the next sign-in. */
function providerConfig(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuer}\u0000${oidc.clientId}`;
  if (discovered?.key === key) return discovered.config;
  const issuer = new URL(oidc.issuer);
  // client_secret_basic: the one method Keycloak, Authentik, Google and Entra all accept.
  const config = client.discovery(issuer, oidc.clientId, undefined, client.ClientSecretBasic(oidc.clientSecret), isLoopbackHttp(issuer) ? { execute: [client.allowInsecureRequests] } : undefined);
  discovered = { key, config };
  config.catch(() => {
    if (discovered?.config === config) discovered = null;
  });
  return config;
}

interface FlowState {
  state: string;
  nonce: string;
  verifier: string;
  redirectTo: string;
}

export function callbackUrl(origin: string): string {
  return `${origin}/auth/oidc/callback`;
}

/** Where to send the browser, and the cookie that remembers the flow. */
export async function startOidcSignIn(oidc: OidcConfig, origin: string, redirectTo: string, secure: boolean): Promise<{ location: string; cookie: string }> {
  const config = await providerConfig(oidc);
  const flow: FlowState = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), redirectTo };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(origin),
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  const value = Buffer.from(JSON.stringify(flow)).toString("base64url");
  return { location: url.href, cookie: `${OIDC_COOKIE}=${value}; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=${FLOW_SECONDS}${secure ? "; Secure" : ""}` };
}

export function clearFlowCookie(secure: boolean): string {
  return `${OIDC_COOKIE}=; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
}

export function readFlow(value: string | null): FlowState | null {
  if (!value || value.length > 2000) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return null;
    const f = parsed as Record<string, unknown>;
    return typeof f["state"] === "string" && typeof f["nonce"] === "string" && typeof f["verifier"] === "string" && typeof f["redirectTo"] === "string"
      ? { state: f["state"], nonce: f["nonce"], verifier: f["verifier"], redirectTo: f["redirectTo"] }
      : null;
  } catch {
    return null;
  }
}

/** The provider's identity is not let in: `code` is what the sign-in page says, the message what the log does. */
export class OidcRefused extends Error {
  override name = "OidcRefused";
  constructor(
    readonly code: SignInErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Exchanges the code (checking state, nonce and PKCE) and returns the verified identity. */
export async function finishOidcSignIn(oidc: OidcConfig, origin: string, search: string, flow: FlowState): Promise<OidcIdentity> {
  const config = await providerConfig(oidc);
  const tokens = await client.authorizationCodeGrant(config, new URL(`${callbackUrl(origin)}${search}`), { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
  const claims = tokens.claims();
  if (!claims) throw new OidcRefused("no_id_token", "The provider sent no ID token.");
  let email = typeof claims["email"] === "string" ? claims["email"] : null;
  let verified = claims["email_verified"];
  let name = typeof claims["name"] === "string" ? claims["name"] : null;
  // The ID token may carry the address and not whether it is verified: userinfo then says.
  if (email === null || verified === undefined) {
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    const infoEmail = typeof info.email === "string" ? info.email : null;
    email ??= infoEmail;
    // Its verdict counts only for the address it is about.
    if (verified === undefined && infoEmail !== null && infoEmail.toLowerCase() === email?.toLowerCase()) verified = info.email_verified;
    name ??= typeof info.name === "string" ? info.name : null;
  }
  if (email === null) throw new OidcRefused("no_email", "The provider did not share an e-mail address; allow the `email` scope for this client.");
  // Some providers (Cognito's userinfo) send the claim as the string "true".
  if (verified === false || verified === "false") throw new OidcRefused("email_unverified", `The provider has not verified ${email}.`);
  return { subject: `${oidc.issuer}|${claims.sub}`, email: email.toLowerCase(), emailVerified: verified === true || verified === "true", name };
}

/** A signed-in identity: `emailVerified` when the provider said so (the `email_verified` claim). */
export interface OidcIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
}

/**
 * The account of a verified identity: found by subject, else by e-mail (an invited person's first
 * OIDC sign-in), else created when the allow-list or the admin list names the address. Whatever
 * goes by the e-mail (linking an account, the allow-list, the admin list) needs the provider to
 * have said it verified it: some providers let a user type any address, and linking by it alone
 * handed over the account that address belonged to.
 */
export async function accountForIdentity(db: Kysely<Database>, config: AuthConfig, identity: OidcIdentity): Promise<User> {
  const isAdmin = identity.emailVerified && config.adminEmails.includes(identity.email);
  let user = await findUserByOidcSubject(db, identity.subject);
  if (!user) {
    if (!identity.emailVerified) {
      throw new OidcRefused(
        "email_verified_missing",
        `The provider did not say it verified ${identity.email} (no email_verified claim), and a first sign-in is matched to an invitation or the allow-list by that address. Ask the provider's admin to send email_verified.`,
      );
    }
    const byEmail = await findUserRowByEmail(db, identity.email);
    if (byEmail) {
      if (byEmail.oidc_subject !== null && byEmail.oidc_subject !== identity.subject) throw new OidcRefused("already_linked", `${identity.email} is already linked to another sign-in.`);
      await updateUser(db, byEmail.id, { oidcSubject: identity.subject });
      user = toUser({ ...byEmail, oidc_subject: identity.subject });
    } else {
      if (!isAdmin && !emailAllowed(identity.email, config.oidc?.allowed ?? [])) throw new OidcRefused("not_allowed", `${identity.email} is not allowed to sign in here. Ask an admin to invite you.`);
      user = await createUser(db, { email: identity.email, name: identity.name, role: isAdmin ? "admin" : "member", oidcSubject: identity.subject, now: new Date().toISOString() });
    }
  }
  if (user.disabled) throw new OidcRefused("disabled", "This account is disabled. Ask an admin to enable it.");
  if (isAdmin && user.role !== "admin") {
    await updateUser(db, user.id, { role: "admin" });
    user = { ...user, role: "admin" };
  }
  return user;
}

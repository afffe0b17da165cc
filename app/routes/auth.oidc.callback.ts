import { redirect } from "react-router";
import type { Route } from "./+types/auth.oidc.callback";
import { cookieValue, SESSION_COOKIE } from "#app/auth/access.server.ts";
import { siteOrigin, startSession } from "#app/auth/accounts.server.ts";
import { accountForIdentity, clearFlowCookie, finishOidcSignIn, OIDC_COOKIE, OidcRefused, readFlow } from "#app/auth/oidc.server.ts";
import { type SignInErrorCode, signInErrorPath } from "#app/auth/sign-in-errors.ts";
import { authConfig, safeRedirect, secureCookies } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { log } from "#app/utils/logger.server.ts";

/** GET /auth/oidc/callback: the provider's answer, checked, and a session for the person it names. */
export async function loader({ request }: Route.LoaderArgs) {
  const config = authConfig();
  if (!config.oidc) throw redirect("/login");
  const secure = secureCookies(request, config);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", clearFlowCookie(secure));
  const fail = (code: SignInErrorCode) => redirect(signInErrorPath(code), { headers });
  const url = new URL(request.url);
  const flow = readFlow(cookieValue(request.headers.get("cookie"), OIDC_COOKIE));
  if (!flow) return fail("expired");
  const providerError = url.searchParams.get("error");
  if (providerError) {
    // The provider's words come through the address, which anyone can write: the log has them, the page does not.
    log().warn(`[auth] OpenID Connect sign-in refused by the provider: ${(url.searchParams.get("error_description") ?? providerError).slice(0, 200)}`);
    return fail("refused");
  }
  const db = getDb().db;
  try {
    const identity = await finishOidcSignIn(config.oidc, siteOrigin(config, request.url), url.search, flow);
    const user = await accountForIdentity(db, config, identity);
    const session = await startSession(db, user, config, secure, cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
    headers.append("Set-Cookie", session.cookie);
    return redirect(safeRedirect(flow.redirectTo), { headers });
  } catch (error) {
    if (error instanceof OidcRefused) {
      log().warn(`[auth] OpenID Connect sign-in refused: ${error.message}`);
      return fail(error.code);
    }
    log().error(`[auth] OpenID Connect sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    return fail("failed");
  }
}

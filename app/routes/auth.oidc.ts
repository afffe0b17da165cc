import { redirect } from "react-router";
import type { Route } from "./+types/auth.oidc";
import { siteOrigin } from "#app/auth/accounts.server.ts";
import { startOidcSignIn } from "#app/auth/oidc.server.ts";
import { signInErrorPath } from "#app/auth/sign-in-errors.ts";
import { authConfig, safeRedirect, secureCookies } from "#app/auth/viewer.server.ts";
import { log } from "#app/utils/logger.server.ts";

/** GET /auth/oidc: off to the identity provider, with PKCE, state and nonce. */
export async function loader({ request }: Route.LoaderArgs) {
  const config = authConfig();
  if (!config.oidc) throw redirect("/login");
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  try {
    const flow = await startOidcSignIn(config.oidc, siteOrigin(config, request.url), redirectTo, secureCookies(request, config));
    return redirect(flow.location, { headers: { "Set-Cookie": flow.cookie, "Cache-Control": "no-store" } });
  } catch (error) {
    log().error(`[auth] OpenID Connect discovery failed for ${config.oidc.issuer}: ${error instanceof Error ? error.message : String(error)}`);
    throw redirect(signInErrorPath("unreachable"));
  }
}

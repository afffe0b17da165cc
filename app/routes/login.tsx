import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/login";
import { cookieValue, SESSION_COOKIE } from "#app/auth/access.server.ts";
import { AccountError, signInWithPassword, startSession } from "#app/auth/accounts.server.ts";
import { clientAddressOf } from "#app/auth/client-address.server.ts";
import { accessPolicy } from "#app/auth/policy.server.ts";
import { Field, inputCls, Notice, primaryButtonCls, secondaryButtonCls } from "#app/auth/form-ui.tsx";
import { signInErrorText } from "#app/auth/sign-in-errors.ts";
import { authConfig, getViewer, safeRedirect, secureCookies } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { countUsers } from "#app/db/queries/accounts.server.ts";
import { formText, readFormCapped } from "#app/utils/http.server.ts";
import { scopeOf } from "#app/utils/request-context.ts";

export const meta: Route.MetaFunction = () => [{ title: "Sign in · Modelyard" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getViewer(request)) throw redirect(redirectTo);
  const config = authConfig();
  return {
    redirectTo,
    oidc: config.oidc ? { host: new URL(config.oidc.issuer).host } : null,
    hasAccounts: (await countUsers(getDb().db)) > 0,
    policy: await accessPolicy(getDb().db, config),
    oidcError: signInErrorText(url.searchParams.get("error")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormCapped(request, 8 * 1024);
  const email = formText(form, "email");
  const password = formText(form, "password");
  const redirectTo = safeRedirect(form.get("redirectTo"));
  const config = authConfig();
  const db = getDb().db;
  const address = clientAddressOf(scopeOf(context).clientAddress ?? "", request.headers.get("x-forwarded-for"), config.trustedProxies);
  try {
    const user = await signInWithPassword(db, email, password, address);
    const session = await startSession(db, user, config, secureCookies(request, config), cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
    return redirect(redirectTo, { headers: { "Set-Cookie": session.cookie } });
  } catch (error) {
    if (error instanceof AccountError) return data({ error: error.message, field: error.field, email }, { status: error.status });
    throw error;
  }
}

export default function LoginPage() {
  const { redirectTo, oidc, hasAccounts, policy, oidcError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-2xl font-bold tracking-tight">Sign in</h1>
      <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        {policy === "private"
          ? "This Modelyard is private: sign in to browse it."
          : "Members run demos on this site's keys, and create API tokens for scripts. Anyone may browse, and run demos with their own provider token."}
      </p>
      <div className="mt-6 space-y-4">
        {oidcError ? <Notice kind="error">{oidcError}</Notice> : null}
        {oidc ? (
          // A link, not a form: the CSP's form-action would stop a form's redirect to the provider.
          <a href={`/auth/oidc?redirectTo=${encodeURIComponent(redirectTo)}`} className={`${secondaryButtonCls} block w-full py-2 text-center`} data-oidc-sign-in>
            Sign in with {oidc.host}
          </a>
        ) : null}
        {oidc && hasAccounts ? <p className="text-center text-xs text-gray-600 dark:text-gray-400">or with a password</p> : null}
        {hasAccounts ? (
          <Form method="post" className="space-y-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
            {result?.error && result.field === null ? <Notice kind="error">{result.error}</Notice> : null}
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field label="E-mail" name="email" error={result?.field === "email" ? result.error : null}>
              <input id="email" name="email" type="email" autoComplete="username" required defaultValue={result?.email ?? ""} className={inputCls} aria-invalid={result?.field === "email" || undefined} />
            </Field>
            <Field label="Password" name="password" error={result?.field === "password" ? result.error : null}>
              <input id="password" name="password" type="password" autoComplete="current-password" required className={inputCls} aria-invalid={result?.field === "password" || undefined} />
            </Field>
            <button type="submit" disabled={busy} className={`${primaryButtonCls} w-full py-2`}>
              {busy ? "Signing in…" : "Sign in"}
            </button>
            <p className="text-xs text-gray-600 dark:text-gray-400">No password yet, or forgot it? Ask an admin for a one-time sign-in link.</p>
          </Form>
        ) : null}
        {!hasAccounts && !oidc ? (
          <Notice kind="info">
            <p className="font-medium">No one can sign in yet.</p>
            <p className="mt-1">
              On the machine that runs Modelyard, add the first admin:{" "}
              <code className="font-mono text-xs">npx modelyard users add you@example.com --role admin</code>. It prints a one-time link that sets a password. Or configure OpenID Connect
              (MODELYARD_OIDC_ISSUER, …_CLIENT_ID, …_CLIENT_SECRET).
            </p>
          </Notice>
        ) : null}
        {policy !== "private" ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">
            No account? You can still run demos with your own token:{" "}
            <a href="/settings" className="text-indigo-700 underline dark:text-indigo-300">
              add it in Settings
            </a>
            .
          </p>
        ) : null}
      </div>
    </div>
  );
}

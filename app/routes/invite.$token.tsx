import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/invite.$token";
import { cookieValue, SESSION_COOKIE } from "#app/auth/access.server.ts";
import { passwordSchema, setPasswordWithLink, startSession } from "#app/auth/accounts.server.ts";
import { Field, inputCls, Notice, primaryButtonCls } from "#app/auth/form-ui.tsx";
import { sha256Hex } from "#app/auth/secrets.server.ts";
import { authConfig, secureCookies } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { peekSignInLink } from "#app/db/queries/accounts.server.ts";
import { readFormCapped } from "#app/utils/http.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Set your password · Modelyard" }, { name: "robots", content: "noindex" }];

// The link's secret is in this page's address: it must not leave in a Referer.
export const headers: Route.HeadersFunction = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

async function linkPerson(token: string) {
  if (token.length > 100) return undefined;
  return peekSignInLink(getDb().db, sha256Hex(token), new Date().toISOString());
}

// Only a live link is stored as such: a used, an expired and a mistyped one are told apart by nothing here.
const UNUSABLE = "This sign-in link does not work: it was already used, it has expired (links last 24 hours), or it was never issued. Ask an admin for a new one.";

export async function loader({ params }: Route.LoaderArgs) {
  const person = await linkPerson(params.token);
  return data({ email: person?.email ?? null }, { status: person ? 200 : 404 });
}

export async function action({ request, params }: Route.ActionArgs) {
  const form = await readFormCapped(request, 8 * 1024);
  const person = await linkPerson(params.token);
  if (!person) return data({ error: UNUSABLE, field: null }, { status: 404 });
  const password = passwordSchema.safeParse(form.get("password") ?? "");
  if (!password.success) return data({ error: password.error.issues[0]?.message ?? "password is not valid", field: "password" }, { status: 400 });
  if (form.get("confirm") !== password.data) return data({ error: "The two passwords differ.", field: "confirm" }, { status: 400 });
  const db = getDb().db;
  if (!(await setPasswordWithLink(db, params.token, person.id, password.data))) {
    return data({ error: UNUSABLE, field: null }, { status: 404 });
  }
  const config = authConfig();
  const session = await startSession(db, person, config, secureCookies(request, config), cookieValue(request.headers.get("cookie"), SESSION_COOKIE));
  return redirect("/settings/tokens?welcome=1", { headers: { "Set-Cookie": session.cookie } });
}

export default function InvitePage() {
  const { email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <h1 className="text-2xl font-bold tracking-tight">Set your password</h1>
      {email === null ? (
        <div className="mt-6">
          <Notice kind="error">{UNUSABLE}</Notice>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-3 rounded-lg border border-gray-200 p-4 dark:border-gray-800">
          <p className="text-sm text-gray-700 dark:text-gray-300">
            For <strong>{email}</strong>. This link works once; the password is what you sign in with from now on.
          </p>
          {result?.error && result.field === null ? <Notice kind="error">{result.error}</Notice> : null}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <Field label="New password" name="password" hint="At least 12 characters. A passphrase of several words is easy to remember." error={result?.field === "password" ? result.error : null}>
            <input id="password" name="password" type="password" autoComplete="new-password" required minLength={12} maxLength={256} className={inputCls} />
          </Field>
          <Field label="The same password again" name="confirm" error={result?.field === "confirm" ? result.error : null}>
            <input id="confirm" name="confirm" type="password" autoComplete="new-password" required className={inputCls} />
          </Field>
          <button type="submit" disabled={busy} className={`${primaryButtonCls} w-full py-2`}>
            {busy ? "Saving…" : "Set password and sign in"}
          </button>
        </Form>
      )}
    </div>
  );
}

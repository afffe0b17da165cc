import { data, Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/settings.tokens";
import { createPersonalToken, tokenInputSchema } from "#app/auth/accounts.server.ts";
import { AccountPage, CsrfField, Field, inputCls, Notice, primaryButtonCls, SETTINGS_TABS, tabsFor } from "#app/auth/form-ui.tsx";
import { TokenTable, tokensPastEnd } from "#app/auth/token-table.tsx";
import { lastPageOf, PAGE_SIZE, pageOf, tokenView } from "#app/auth/token-views.server.ts";
import { checkCsrf, csrfTokenOf, requireViewer } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { countApiTokens, listApiTokens, revokeApiToken } from "#app/db/queries/accounts.server.ts";
import { CopyButton } from "#app/ui/copy-button.tsx";
import { Pagination } from "#app/ui/pagination.tsx";
import { PastEnd } from "#app/ui/past-end.tsx";
import { formText, readFormCapped } from "#app/utils/http.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "API tokens · Modelyard" }, { name: "robots", content: "noindex" }];
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireViewer(request);
  const db = getDb().db;
  const page = pageOf(request);
  const now = new Date().toISOString();
  const [rows, total] = await Promise.all([listApiTokens(db, { userId: viewer.id, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }), countApiTokens(db, { userId: viewer.id })]);
  const last = lastPageOf(total);
  return data(
    {
      tokens: rows.map((t) => tokenView(t, now)),
      page,
      last,
      total,
      csrf: csrfTokenOf(request),
      welcome: new URL(request.url).searchParams.get("welcome") === "1",
      origin: new URL(request.url).origin,
    },
    { status: page > last ? 404 : 200 },
  );
}

const EXPIRY_CHOICES = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "No expiry" },
] as const;

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireViewer(request);
  const form = await readFormCapped(request, 8 * 1024);
  checkCsrf(request, form);
  const db = getDb().db;
  if (form.get("intent") === "revoke") {
    const id = formText(form, "id");
    const revoked = await revokeApiToken(db, id, new Date().toISOString(), viewer.id);
    return data({ kind: "revoked" as const, ok: revoked, message: revoked ? "Revoked. It no longer works anywhere." : "That token was already revoked, or is not yours." }, { status: revoked ? 200 : 404 });
  }
  const expiry = (formText(form, "expires") || "30");
  const input = tokenInputSchema.safeParse({
    name: form.get("name") ?? "",
    expiresInDays: expiry === "never" ? null : Number(expiry),
    scopes: form.getAll("scopes").map(String),
    rpm: null,
    tokensPerDay: null,
  });
  if (!input.success) {
    const issue = input.error.issues[0];
    return data({ kind: "error" as const, field: String(issue?.path[0] ?? "name"), message: issue?.message ?? "The token could not be created." }, { status: 400 });
  }
  const created = await createPersonalToken(db, viewer.id, input.data);
  return data({ kind: "created" as const, token: created.token, name: input.data.name, expiresAt: created.expiresAt });
}

export default function TokensPage() {
  const { tokens, page, last, total, csrf, welcome, origin } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const fieldError = (name: string) => (result?.kind === "error" && result.field === name ? result.message : null);
  return (
    <AccountPage
      title="API tokens"
      intro="Personal tokens let scripts and notebooks call this server’s API as you, on its keys. Send one as Authorization: Bearer <token>."
      tabs={tabsFor(SETTINGS_TABS, "/settings/tokens")}
    >
      {welcome ? <Notice kind="ok">You are signed in. Demos now run on this site’s keys, and you can create tokens below.</Notice> : null}
      {result?.kind === "created" ? (
        <div className="space-y-2 rounded-lg border border-green-300 bg-green-50 p-4 dark:border-green-800 dark:bg-green-950" data-new-token>
          <p className="text-sm font-medium text-green-900 dark:text-green-100">
            Token “{result.name}” created{result.expiresAt ? `, valid until ${result.expiresAt.slice(0, 10)}` : ", with no expiry"}. Copy it now: it is shown only once.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-2 py-1 font-mono text-sm dark:bg-gray-900" data-token-value>
              {result.token}
            </code>
            <CopyButton text={result.token} label="Copy token" />
          </div>
          <pre className="overflow-x-auto rounded bg-white p-2 text-xs dark:bg-gray-900">
            {`curl ${origin}/api/inference \\\n  -H 'Authorization: Bearer ${result.token.slice(0, 10)}…' \\\n  -H 'Content-Type: application/json' \\\n  -d '{"model": "org/name", "messages": [{"role": "user", "content": "Hello"}]}'`}
          </pre>
        </div>
      ) : null}
      {result?.kind === "revoked" ? <Notice kind={result.ok ? "ok" : "error"}>{result.message}</Notice> : null}

      <section aria-labelledby="new-token" className="rounded-lg border border-gray-200 p-4 dark:border-gray-800">
        <h2 id="new-token" className="text-lg font-semibold">
          New token
        </h2>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-start">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" name="name" hint="What uses it, e.g. “notebook” or “CI”." error={fieldError("name")}>
            <input id="name" name="name" required maxLength={100} className={inputCls} />
          </Field>
          <Field label="Expires after" name="expires" error={fieldError("expiresInDays")}>
            <select id="expires" name="expires" defaultValue="30" className={inputCls}>
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </Field>
          <fieldset className="text-sm sm:row-start-2">
            <legend className="mb-1 text-xs font-medium text-gray-700 dark:text-gray-300">Scopes</legend>
            <label className="mr-4 inline-flex items-center gap-1.5">
              <input type="checkbox" name="scopes" value="read" defaultChecked /> read (catalogue APIs)
            </label>
            <label className="inline-flex items-center gap-1.5">
              <input type="checkbox" name="scopes" value="inference" defaultChecked /> inference (spends keys)
            </label>
            {fieldError("scopes") ? <p className="mt-1 text-xs text-red-700 dark:text-red-300">{fieldError("scopes")}</p> : null}
          </fieldset>
          <div className="sm:pt-5">
            <button type="submit" disabled={busy} className={primaryButtonCls}>
              Create token
            </button>
          </div>
        </Form>
      </section>

      <section aria-labelledby="your-tokens" className="space-y-3">
        <h2 id="your-tokens" className="text-lg font-semibold">
          Your tokens
        </h2>
        {page > last ? (
          <PastEnd page={page} lastPage={last} message={tokensPastEnd(total, "You have", last)} href={`/settings/tokens?page=${last}`} />
        ) : (
          <>
            <TokenTable tokens={tokens} csrf={csrf} showOwner={false} />
            <Pagination page={page} last={last} more={false} href={(p) => `/settings/tokens?page=${p}`} />
          </>
        )}
      </section>
    </AccountPage>
  );
}

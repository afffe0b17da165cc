import { data, Form, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/admin._index";
import { AccountError, addPerson, createSignInLink, roleSchema, siteOrigin } from "#app/auth/accounts.server.ts";
import { serverHoldsKeys } from "#app/auth/auth-config.server.ts";
import { POLICY_TTL_MS, policyOverride, setPolicyOverride } from "#app/auth/policy.server.ts";
import { ADMIN_TABS, AccountPage, CsrfField, Field, inputCls, Notice, primaryButtonCls, secondaryButtonCls, tabsFor } from "#app/auth/form-ui.tsx";
import { PersonRow } from "#app/auth/person-row.tsx";
import { lastPageOf, PAGE_SIZE, pageOf } from "#app/auth/token-views.server.ts";
import { authConfig, checkCsrf, csrfTokenOf, requireAdmin } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { countAdmins, countUsers, deleteUserSessions, findUserById, listUsers, updateUser } from "#app/db/queries/accounts.server.ts";
import { CopyButton } from "#app/ui/copy-button.tsx";
import { Pagination } from "#app/ui/pagination.tsx";
import { PastEnd } from "#app/ui/past-end.tsx";
import { configEnv } from "#app/utils/env.server.ts";
import { formText, readFormCapped } from "#app/utils/http.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "People · Admin · Modelyard" }, { name: "robots", content: "noindex" }];
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

const POLICY_TEXT = {
  open: "open: anyone who reaches the site runs demos on the server's keys.",
  members: "members: anyone may browse and run demos with their own token; only signed-in members and API tokens spend the server's keys.",
  private: "private: every page and API needs sign-in.",
} as const;

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  const db = getDb().db;
  const page = pageOf(request);
  const config = authConfig();
  // Part of an e-mail: a long list is found by who, not paged through.
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const emailHas = q === "" ? undefined : q;
  const [people, total, everyone] = await Promise.all([
    listUsers(db, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, emailHas }),
    countUsers(db, emailHas),
    emailHas === undefined ? null : countUsers(db),
  ]);
  const last = lastPageOf(total);
  return data({
    viewerId: viewer.id,
    people,
    q,
    everyone: everyone ?? total,
    page,
    last,
    total,
    csrf: csrfTokenOf(request),
    policy: { current: (await policyOverride(db)) ?? config.access, fromEnv: config.access, overridden: (await policyOverride(db)) !== null, serverKeys: serverHoldsKeys(configEnv()), ttlSeconds: POLICY_TTL_MS / 1000 },
    defaults: { rpm: config.memberRpm, tokensPerDay: config.memberTokensPerDay },
    oidc: config.oidc ? new URL(config.oidc.issuer).host : null,
  }, { status: page > last ? 404 : 200 });
}

const fmt = new Intl.NumberFormat("en-US");
const MAX_LIMIT = 1_000_000_000_000;

/** A quota field: empty for the default, else a whole number; its error names the field as the form labels it. */
const optionalLimit = (value: string, field: string, label: string): number | null => {
  const text = value.trim();
  if (text === "") return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new AccountError(`${label} must be a whole number from 1 to ${fmt.format(MAX_LIMIT)}, or empty for the default; got “${text.slice(0, 40)}”.`, field);
  return n;
};

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readFormCapped(request, 8 * 1024);
  checkCsrf(request, form);
  const db = getDb().db;
  const intent = form.get("intent");
  try {
    if (intent === "policy") {
      const choice = formText(form, "policy");
      if (choice === "default") await setPolicyOverride(db, null);
      else if (choice === "open" || choice === "members" || choice === "private") await setPolicyOverride(db, choice);
      else throw new AccountError("policy must be open, members, private or default", "policy");
      return data({ kind: "ok" as const, message: choice === "default" ? "The policy follows MODELYARD_ACCESS again." : `The policy is now ${choice}. Every instance applies it within ${POLICY_TTL_MS / 1000} s.` });
    }
    if (intent === "invite") {
      const role = roleSchema.safeParse(form.get("role"));
      if (!role.success) throw new AccountError("role must be admin or member", "role");
      let added;
      try {
        added = await addPerson(db, { email: formText(form, "email"), role: role.data }, siteOrigin(authConfig(), request.url));
      } catch (error) {
        if (error instanceof Error && "issues" in error) throw new AccountError("Enter a valid e-mail address.", "email");
        throw error;
      }
      return data({ kind: "link" as const, email: added.user.email, url: added.link.url, expiresAt: added.link.expiresAt, created: added.created, roleNow: added.roleChanged ? added.user.role : null });
    }
    const id = formText(form, "id");
    const person = await findUserById(db, id);
    if (!person) throw new AccountError("That person no longer exists.", null);
    const lastAdmin = person.role === "admin" && !person.disabled && (await countAdmins(db)) <= 1;
    if (intent === "link") {
      const link = await createSignInLink(db, person.id, siteOrigin(authConfig(), request.url));
      return data({ kind: "link" as const, email: person.email, url: link.url, expiresAt: link.expiresAt, created: false, roleNow: null });
    }
    if (intent === "role") {
      const role = roleSchema.safeParse(form.get("role"));
      if (!role.success) throw new AccountError("role must be admin or member", null);
      if (role.data !== "admin" && lastAdmin) throw new AccountError("This is the last admin: make someone else an admin first.", null);
      await updateUser(db, person.id, { role: role.data });
      return data({ kind: "ok" as const, message: `${person.email} is now ${role.data === "admin" ? "an admin" : "a member"}.` });
    }
    if (intent === "disable" || intent === "enable") {
      if (intent === "disable" && (lastAdmin || person.id === admin.id)) throw new AccountError(person.id === admin.id ? "You cannot disable yourself." : "This is the last admin: make someone else an admin first.", null);
      await updateUser(db, person.id, { disabled: intent === "disable" });
      // A disabled person's sessions end at once, everywhere; their tokens stop working with them.
      if (intent === "disable") await deleteUserSessions(db, person.id);
      return data({ kind: "ok" as const, message: `${person.email} is ${intent === "disable" ? "disabled: signed out everywhere, tokens refused" : "enabled again"}.` });
    }
    if (intent === "quota") {
      const rpm = optionalLimit(formText(form, "rpm"), "rpm", "Requests/min");
      const perDay = optionalLimit(formText(form, "tokensPerDay"), "tokensPerDay", "Tokens/day");
      await updateUser(db, person.id, { quotaRpm: rpm, quotaTokensPerDay: perDay });
      return data({ kind: "ok" as const, message: `Quotas of ${person.email} saved.` });
    }
    throw new AccountError("Unknown action.", "intent");
  } catch (error) {
    if (error instanceof AccountError) return data({ kind: "error" as const, message: error.message, field: error.field }, { status: 400 });
    throw error;
  }
}

export default function AdminPeoplePage() {
  const { people, q, everyone, page, last, total, csrf, policy, defaults, viewerId, oidc } = useLoaderData<typeof loader>();
  const pageHref = (n: number) => `/admin?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) }).toString()}`;
  const result = useActionData<typeof action>();
  return (
    <AccountPage title="People" intro={`${fmt.format(everyone)} ${everyone === 1 ? "account" : "accounts"}.`} tabs={tabsFor(ADMIN_TABS, "/admin")}>
      {result?.kind === "error" ? <Notice kind="error">{result.message}</Notice> : null}
      {result?.kind === "ok" ? <Notice kind="ok">{result.message}</Notice> : null}
      {result?.kind === "link" ? (
        <div className="space-y-2 rounded-lg border border-green-300 bg-green-50 p-4 text-sm dark:border-green-800 dark:bg-green-950" data-sign-in-link>
          <p className="font-medium text-green-900 dark:text-green-100">
            {result.created ? `Added ${result.email}.` : `New link for ${result.email}.`}
            {result.roleNow ? ` They are now ${result.roleNow === "admin" ? "an admin" : "a member"}.` : ""} Send them this one-time sign-in link privately; it works once, until {result.expiresAt.slice(0, 16).replace("T", " ")} UTC.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-gray-900">{result.url}</code>
            <CopyButton text={result.url} label="Copy link" />
          </div>
        </div>
      ) : null}

      <section aria-labelledby="policy" className="rounded-lg border border-gray-200 p-4 text-sm dark:border-gray-800">
        <h2 id="policy" className="text-lg font-semibold">
          Who may spend this server’s keys
        </h2>
        <p className="mt-1 text-gray-700 dark:text-gray-300">
          The server {policy.serverKeys ? "holds" : "holds no"} provider keys of its own. Default quotas per person: {fmt.format(defaults.rpm)} requests a minute,{" "}
          {defaults.tokensPerDay === null ? "no daily token limit" : `${fmt.format(defaults.tokensPerDay)} tokens a day`}.
          {oidc ? ` Sign-in through ${oidc} is on.` : " OpenID Connect is not configured; people sign in with passwords."}
        </p>
        <Form method="post" className="mt-3 space-y-2" data-policy-form>
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="policy" />
          <fieldset className="space-y-1.5">
            <legend className="sr-only">Access policy</legend>
            {(["members", "open", "private"] as const).map((p) => (
              <label key={p} className="flex items-start gap-2">
                <input type="radio" name="policy" value={p} defaultChecked={policy.overridden && policy.current === p} className="mt-1" />
                <span>
                  <strong>{p}</strong>: {POLICY_TEXT[p].split(": ")[1]}
                </span>
              </label>
            ))}
            <label className="flex items-start gap-2">
              <input type="radio" name="policy" value="default" defaultChecked={!policy.overridden} className="mt-1" />
              <span>
                <strong>server default</strong>: MODELYARD_ACCESS, now <strong>{policy.fromEnv}</strong>
              </span>
            </label>
          </fieldset>
          <button type="submit" className={secondaryButtonCls}>
            Save policy
          </button>
          <p className="text-xs text-gray-600 dark:text-gray-400">
            In force now: <strong data-policy-current>{policy.current}</strong>. A choice here is kept in the database, so every instance applies it within {policy.ttlSeconds} s.
          </p>
        </Form>
      </section>

      <section aria-labelledby="invite" className="rounded-lg border border-gray-200 p-4 dark:border-gray-800">
        <h2 id="invite" className="text-lg font-semibold">
          Invite someone
        </h2>
        <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="invite" />
          <Field label="E-mail" name="invite-email" error={result?.kind === "error" && result.field === "email" ? result.message : null}>
            <input id="invite-email" name="email" type="email" required className={inputCls} />
          </Field>
          <Field label="Role" name="invite-role" error={result?.kind === "error" && result.field === "role" ? result.message : null}>
            <select id="invite-role" name="role" defaultValue="member" className={inputCls}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </Field>
          <button type="submit" className={primaryButtonCls}>
            Add and get link
          </button>
        </Form>
      </section>

      <section aria-labelledby="people" className="space-y-3">
        <h2 id="people" className="text-lg font-semibold">
          Everyone
        </h2>
        <Form method="get" role="search" className="flex flex-wrap items-end gap-2" data-people-search>
          <label className="text-sm">
            <span className="block text-gray-700 dark:text-gray-300">Find by e-mail</span>
            <input name="q" type="search" defaultValue={q} placeholder="part of an address" className={`${inputCls} w-72`} />
          </label>
          <button type="submit" className={secondaryButtonCls}>
            Find
          </button>
          {q ? (
            <a href="/admin" className="text-sm text-indigo-700 underline dark:text-indigo-300">
              Show everyone
            </a>
          ) : null}
        </Form>
        {q ? (
          <p className="text-sm text-gray-700 dark:text-gray-300" data-people-found>
            {total === 0 ? `No account’s e-mail holds “${q}”.` : `${fmt.format(total)} ${total === 1 ? "account’s e-mail holds" : "accounts’ e-mails hold"} “${q}”.`}
          </p>
        ) : null}
        {page > last ? (
          <PastEnd
            page={page}
            lastPage={last}
            message={`There ${total === 1 ? "is 1 account" : `are ${fmt.format(total)} accounts`}${q ? ` whose e-mail holds “${q}”` : ""}, on ${last === 1 ? "1 page" : `${fmt.format(last)} pages`}.`}
            href={pageHref(last)}
          />
        ) : total === 0 ? null : (
          <>
            <ul className="divide-y divide-gray-200 rounded-lg border border-gray-200 dark:divide-gray-800 dark:border-gray-800" data-people>
              {people.map((p) => (
                <PersonRow key={p.id} p={p} csrf={csrf} defaults={defaults} isViewer={p.id === viewerId} />
              ))}
            </ul>
            <Pagination page={page} last={last} more={false} href={pageHref} />
          </>
        )}
      </section>
    </AccountPage>
  );
}

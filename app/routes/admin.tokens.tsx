import { data, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/admin.tokens";
import { ADMIN_TABS, AccountPage, Notice, tabsFor } from "#app/auth/form-ui.tsx";
import { TokenTable, tokensPastEnd } from "#app/auth/token-table.tsx";
import { lastPageOf, PAGE_SIZE, pageOf, tokenView } from "#app/auth/token-views.server.ts";
import { checkCsrf, csrfTokenOf, requireAdmin } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { countApiTokens, findApiToken, findUserById, listApiTokens, revokeApiToken } from "#app/db/queries/accounts.server.ts";
import { Pagination } from "#app/ui/pagination.tsx";
import { PastEnd } from "#app/ui/past-end.tsx";
import { formText, readFormCapped } from "#app/utils/http.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Tokens · Admin · Modelyard" }, { name: "robots", content: "noindex" }];
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = getDb().db;
  const page = pageOf(request);
  const now = new Date().toISOString();
  const [rows, total] = await Promise.all([listApiTokens(db, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }), countApiTokens(db, {})]);
  const last = lastPageOf(total);
  return data({ tokens: rows.map((t) => tokenView(t, now)), page, last, total, csrf: csrfTokenOf(request) }, { status: page > last ? 404 : 200 });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await readFormCapped(request, 4 * 1024);
  checkCsrf(request, form);
  const id = formText(form, "id");
  const db = getDb().db;
  const token = await findApiToken(db, id);
  const owner = token ? await findUserById(db, token.user_id) : undefined;
  // Named as the table shows it: the internal id means nothing to the admin who clicked.
  const what = token ? `“${token.name}” (${token.display_prefix}…) of ${owner?.email ?? "a removed person"}` : "That token";
  const revoked = await revokeApiToken(db, id, new Date().toISOString());
  return data({ ok: revoked, message: revoked ? `Revoked ${what}: it no longer works anywhere.` : `${what} was already revoked or does not exist.` }, { status: revoked ? 200 : 404 });
}

export default function AdminTokensPage() {
  const { tokens, page, last, total, csrf } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <AccountPage title="Everyone’s tokens" intro={`${total} ${total === 1 ? "token" : "tokens"}, newest first. Only a short prefix of each is kept in view; the token itself is stored as a hash.`} tabs={tabsFor(ADMIN_TABS, "/admin/tokens")}>
      {result ? <Notice kind={result.ok ? "ok" : "error"}>{result.message}</Notice> : null}
      {page > last ? (
        <PastEnd page={page} lastPage={last} message={tokensPastEnd(total, "There are", last)} href={`/admin/tokens?page=${last}`} />
      ) : (
        <>
          <TokenTable tokens={tokens} csrf={csrf} showOwner />
          <Pagination page={page} last={last} more={false} href={(n) => `/admin/tokens?page=${n}`} />
        </>
      )}
    </AccountPage>
  );
}

import { Form } from "react-router";
import { CsrfField, dangerButtonCls } from "#app/auth/form-ui.tsx";

export interface TokenView {
  id: string;
  name: string;
  email: string;
  displayPrefix: string;
  scopes: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  state: "live" | "revoked" | "expired";
  limits: string | null;
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "—");

/** What a page past the end of a token list says: how many tokens there are, on how many pages. */
export function tokensPastEnd(total: number, lead: "You have" | "There are", last: number): string {
  const count = total === 0 ? "no tokens" : total === 1 ? "1 token" : `${total.toLocaleString("en-US")} tokens`;
  const verb = lead === "There are" && total === 1 ? "There is" : lead;
  return total === 0 ? `${verb} ${count} yet.` : `${verb} ${count}, on ${last === 1 ? "1 page" : `${last.toLocaleString("en-US")} pages`}.`;
}

/** Tokens with their state and a revoke button; `showOwner` adds the owner's e-mail (admins). */
export function TokenTable({ tokens, csrf, showOwner }: { tokens: readonly TokenView[]; csrf: string | null; showOwner: boolean }) {
  if (tokens.length === 0) return <p className="text-sm text-gray-700 dark:text-gray-300">No tokens yet.</p>;
  return (
    // `relative`: the header's visually hidden "Actions" is positioned absolutely, and without a
    // positioned ancestor it escaped this scroller and widened a phone's page to 783 px.
    <div className="relative overflow-x-auto rounded-lg border border-gray-200 dark:border-gray-800" tabIndex={0} role="region" aria-label="API tokens">
      <table className="min-w-full text-left text-sm" data-token-table>
        <caption className="sr-only">API tokens</caption>
        <thead className="bg-gray-50 text-xs uppercase tracking-wide text-gray-600 dark:bg-gray-900 dark:text-gray-400">
          <tr>
            <th scope="col" className="px-3 py-2">Name</th>
            {showOwner ? <th scope="col" className="px-3 py-2">Owner</th> : null}
            <th scope="col" className="px-3 py-2">Token</th>
            <th scope="col" className="px-3 py-2">Scopes</th>
            <th scope="col" className="px-3 py-2">Created</th>
            <th scope="col" className="px-3 py-2">Expires</th>
            <th scope="col" className="px-3 py-2">Last used</th>
            <th scope="col" className="px-3 py-2">State</th>
            <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
          {tokens.map((t) => (
            <tr key={t.id} data-token-id={t.id}>
              <td className="px-3 py-2 font-medium">
                {t.name}
                {t.limits ? <span className="block text-xs font-normal text-gray-600 dark:text-gray-400">{t.limits}</span> : null}
              </td>
              {showOwner ? <td className="px-3 py-2">{t.email}</td> : null}
              <td className="px-3 py-2 font-mono text-xs">{t.displayPrefix}…</td>
              <td className="px-3 py-2">{t.scopes.replaceAll(",", ", ")}</td>
              <td className="px-3 py-2 tabular-nums">{day(t.createdAt)}</td>
              <td className="px-3 py-2 tabular-nums">{t.expiresAt ? day(t.expiresAt) : "never"}</td>
              <td className="px-3 py-2 tabular-nums">{t.lastUsedAt ? t.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td>
              <td className="px-3 py-2">
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-medium ${t.state === "live" ? "bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-100" : "bg-gray-100 text-gray-700 dark:bg-gray-800 dark:text-gray-300"}`}
                >
                  {t.state}
                </span>
              </td>
              <td className="px-3 py-2 text-right">
                {t.state === "live" ? (
                  <Form method="post">
                    <CsrfField token={csrf} />
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="id" value={t.id} />
                    <button type="submit" className={dangerButtonCls} aria-label={`Revoke ${t.name}`}>
                      Revoke
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

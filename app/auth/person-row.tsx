import { Form } from "react-router";
import { CsrfField, inputCls, secondaryButtonCls } from "#app/auth/form-ui.tsx";
import type { User } from "#app/db/queries/accounts.server.ts";

/**
 * One account on /admin: who they are and how they sign in, with a form each for their role,
 * quotas, a new sign-in link and (for anyone but the viewer) disabling them. The route handles
 * each form's `intent`.
 */
export function PersonRow({ p, csrf, defaults, isViewer }: { p: User; csrf: string; defaults: { rpm: number; tokensPerDay: number | null }; isViewer: boolean }) {
  return (
    <li className="space-y-2 p-3 text-sm" data-person={p.email}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{p.email}</span>
        <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs dark:bg-gray-800">{p.role}</span>
        {p.disabled ? <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs text-red-900 dark:bg-red-900 dark:text-red-100">disabled</span> : null}
        <span className="text-xs text-gray-600 dark:text-gray-400">
          {[p.hasPassword ? "password" : null, p.oidc ? "OpenID Connect" : null].filter(Boolean).join(" + ") || "has not signed in yet"}
          {p.lastSignInAt ? ` · last sign-in ${p.lastSignInAt.slice(0, 10)}` : ""}
        </span>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <Form method="post" className="flex items-end gap-1">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="role" />
          <input type="hidden" name="id" value={p.id} />
          <label className="text-xs">
            <span className="sr-only">Role of {p.email}</span>
            <select name="role" defaultValue={p.role} className={`${inputCls} py-1`}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <button type="submit" className={secondaryButtonCls}>
            Set role
          </button>
        </Form>
        <Form method="post" className="flex items-end gap-1">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="quota" />
          <input type="hidden" name="id" value={p.id} />
          <label className="text-xs">
            <span className="block text-gray-600 dark:text-gray-400">Requests/min</span>
            <input name="rpm" inputMode="numeric" defaultValue={p.quotaRpm ?? ""} placeholder={String(defaults.rpm)} className={`${inputCls} w-24 py-1`} />
          </label>
          <label className="text-xs">
            <span className="block text-gray-600 dark:text-gray-400">Tokens/day</span>
            <input name="tokensPerDay" inputMode="numeric" defaultValue={p.quotaTokensPerDay ?? ""} placeholder={defaults.tokensPerDay === null ? "no limit" : String(defaults.tokensPerDay)} className={`${inputCls} w-28 py-1`} />
          </label>
          <button type="submit" className={secondaryButtonCls}>
            Save quotas
          </button>
        </Form>
        <Form method="post">
          <CsrfField token={csrf} />
          <input type="hidden" name="intent" value="link" />
          <input type="hidden" name="id" value={p.id} />
          <button type="submit" className={secondaryButtonCls}>
            New sign-in link
          </button>
        </Form>
        {!isViewer ? (
          <Form method="post">
            <CsrfField token={csrf} />
            <input type="hidden" name="intent" value={p.disabled ? "enable" : "disable"} />
            <input type="hidden" name="id" value={p.id} />
            <button type="submit" className={secondaryButtonCls}>
              {p.disabled ? "Enable" : "Disable"}
            </button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}

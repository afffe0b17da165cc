import { Form, Link, useLocation } from "react-router";
import type { RootAccess } from "#app/auth/viewer.ts";

/** The header's sign-in link, or the signed-in person's links and sign-out. */
export function AccountMenu({ access }: { access: RootAccess }) {
  const location = useLocation();
  if (!access.viewer) {
    if (location.pathname === "/login") return null;
    return (
      <Link
        to={`/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`}
        className="rounded-md px-3 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-900 dark:hover:text-white"
      >
        Sign in
      </Link>
    );
  }
  return (
    <details className="relative" data-account-menu>
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-1.5 text-sm font-medium text-gray-700 hover:bg-gray-50 dark:text-gray-300 dark:hover:bg-gray-900">
        <span aria-hidden="true" className="flex h-6 w-6 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white">
          {access.viewer.email.slice(0, 1).toUpperCase()}
        </span>
        <span className="sr-only">Account: </span>
        <span className="hidden max-w-40 truncate sm:inline">{access.viewer.email}</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-56 rounded-lg border border-gray-200 bg-white p-1 text-sm shadow-lg dark:border-gray-800 dark:bg-gray-950">
        <p className="truncate px-3 py-2 text-xs text-gray-600 dark:text-gray-400" title={access.viewer.email}>
          {access.viewer.email} · {access.viewer.role}
        </p>
        <MenuLink to="/settings/tokens">API tokens</MenuLink>
        <MenuLink to="/settings/usage">Your usage</MenuLink>
        <MenuLink to="/settings">Provider token</MenuLink>
        {access.viewer.role === "admin" ? (
          <>
            <MenuLink to="/admin">People</MenuLink>
            <MenuLink to="/admin/tokens">All tokens</MenuLink>
            <MenuLink to="/admin/usage">Usage</MenuLink>
          </>
        ) : null}
        <Form method="post" action="/logout" reloadDocument>
          <input type="hidden" name="csrf" value={access.csrf ?? ""} />
          <button type="submit" className="block w-full rounded-md px-3 py-2 text-left hover:bg-gray-50 dark:hover:bg-gray-900">
            Sign out
          </button>
        </Form>
      </div>
    </details>
  );
}

function MenuLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} className="block rounded-md px-3 py-2 hover:bg-gray-50 dark:hover:bg-gray-900">
      {children}
    </Link>
  );
}

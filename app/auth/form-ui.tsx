import type { ReactNode } from "react";

export const inputCls =
  "w-full rounded-md border border-gray-300 bg-white px-2.5 py-1.5 text-sm focus:border-indigo-500 focus:outline-none dark:border-gray-700 dark:bg-gray-900";
export const primaryButtonCls = "rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50";
export const secondaryButtonCls = "rounded-md border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:hover:bg-gray-900";
export const dangerButtonCls = "rounded-md border border-red-300 px-2.5 py-1 text-sm text-red-800 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950";

/** A labelled input; `error` is shown under it and tied to it for screen readers. */
export function Field({ label, name, error, hint, children }: { label: string; name: string; error?: string | null; hint?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={name} className="mb-1 block text-xs font-medium text-gray-700 dark:text-gray-300">
        {label}
      </label>
      {children}
      {hint ? <p className="mt-1 text-xs text-gray-600 dark:text-gray-400">{hint}</p> : null}
      {error ? (
        <p id={`${name}-error`} className="mt-1 text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Notice({ kind, children }: { kind: "error" | "ok" | "info"; children: ReactNode }) {
  const cls =
    kind === "error"
      ? "border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100"
      : kind === "ok"
        ? "border-green-200 bg-green-50 text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100"
        : "border-gray-200 bg-gray-50 text-gray-800 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-200";
  return (
    <div role={kind === "error" ? "alert" : "status"} className={`rounded-lg border px-3 py-2 text-sm ${cls}`}>
      {children}
    </div>
  );
}

export function CsrfField({ token }: { token: string | null }) {
  return <input type="hidden" name="csrf" value={token ?? ""} />;
}

/** Settings and admin pages: a title, a line under it, and tabs between sibling pages. */
export function AccountPage({ title, intro, tabs, children }: { title: string; intro?: ReactNode; tabs?: ReadonlyArray<{ to: string; label: string; current: boolean }>; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {intro ? <div className="mt-1 text-sm text-gray-700 dark:text-gray-300">{intro}</div> : null}
      {tabs ? (
        <nav aria-label="Sections" className="mt-4 flex flex-wrap gap-1 border-b border-gray-200 dark:border-gray-800">
          {tabs.map((t) => (
            <a
              key={t.to}
              href={t.to}
              aria-current={t.current ? "page" : undefined}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${t.current ? "border-indigo-600 text-indigo-700 dark:text-indigo-300" : "border-transparent text-gray-700 hover:text-gray-900 dark:text-gray-300 dark:hover:text-white"}`}
            >
              {t.label}
            </a>
          ))}
        </nav>
      ) : null}
      <div className="mt-6 space-y-8">{children}</div>
    </div>
  );
}

export const ADMIN_TABS = [
  { to: "/admin", label: "People" },
  { to: "/admin/tokens", label: "Tokens" },
  { to: "/admin/usage", label: "Usage" },
] as const;

export const SETTINGS_TABS = [
  { to: "/settings", label: "Provider token" },
  { to: "/settings/tokens", label: "API tokens" },
  { to: "/settings/usage", label: "Usage" },
] as const;

export function tabsFor(list: ReadonlyArray<{ to: string; label: string }>, current: string) {
  return list.map((t) => ({ ...t, current: t.to === current }));
}

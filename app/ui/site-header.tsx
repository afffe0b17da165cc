import type { ReactNode } from "react";
import { NavLink, useLocation } from "react-router";
import { SiteSearch } from "#app/ui/site-search.tsx";
import { ThemeSwitch } from "#app/ui/theme-switch.tsx";
import type { Theme } from "#app/utils/theme.ts";

const NAV = [
  { to: "/models", label: "Models" },
  { to: "/tasks", label: "Tasks" },
  { to: "/spaces", label: "Spaces" },
  { to: "/playground", label: "Playground" },
] as const;

export function Logo() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className="h-7 w-7">
      <rect width="32" height="32" rx="8" className="fill-indigo-600" />
      <path d="M8 22V10l8 7 8-7v12" fill="none" stroke="white" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** `account` is the sign-in link or the signed-in person's menu, which the root composes. */
export function SiteHeader({ theme, account }: { theme: Theme; account?: ReactNode }) {
  const location = useLocation();
  const search = new URLSearchParams(location.search).get("search") ?? "";
  return (
    <header className="border-b border-gray-200 bg-white/90 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <a href="/" className="flex items-center gap-2 text-lg font-bold tracking-tight">
          <Logo />
          <span>Modelyard</span>
        </a>
        <SiteSearch initial={location.pathname === "/models" ? search : ""} inputKey={location.pathname === "/models" ? search : "site"} />
        <nav aria-label="Main" className="flex items-center gap-1">
          {NAV.map((n) => (
            <NavLink
              key={n.to}
              to={n.to}
              prefetch="intent"
              className={({ isActive }) =>
                `rounded-md px-3 py-1.5 text-sm font-medium ${isActive ? "bg-gray-100 text-gray-900 dark:bg-gray-800 dark:text-white" : "text-gray-700 hover:bg-gray-50 hover:text-gray-900 dark:text-gray-300 dark:hover:bg-gray-900 dark:hover:text-white"}`
              }
            >
              {n.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {account}
          <ThemeSwitch theme={theme} redirectTo={`${location.pathname}${location.search}`} />
        </div>
      </div>
    </header>
  );
}

import { useFetcher } from "react-router";
import { type Theme, THEMES } from "#app/utils/theme.ts";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  if (theme !== "system") root.classList.add(theme);
}

/**
 * Three buttons in a form that posts to /theme, so the choice works without JavaScript and is
 * remembered in a cookie; with JavaScript it applies at once and posts in the background.
 */
export function ThemeSwitch({ theme, redirectTo }: { theme: Theme; redirectTo: string }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("theme");
  const current: Theme = typeof pending === "string" && (THEMES as readonly string[]).includes(pending) ? (pending as Theme) : theme;
  return (
    <fetcher.Form method="post" action="/theme" className="flex items-center" aria-label="Colour theme">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <div role="group" aria-label="Colour theme" className="flex rounded-md border border-gray-200 p-0.5 dark:border-gray-700">
        {THEMES.map((t) => (
          <button
            key={t}
            type="submit"
            name="theme"
            value={t}
            aria-pressed={current === t}
            onClick={() => applyTheme(t)}
            className="rounded px-2 py-1 text-xs font-medium text-gray-600 hover:text-gray-900 aria-pressed:bg-gray-100 aria-pressed:text-gray-900 dark:text-gray-300 dark:hover:text-white dark:aria-pressed:bg-gray-800 dark:aria-pressed:text-white"
          >
            {LABELS[t]}
          </button>
        ))}
      </div>
    </fetcher.Form>
  );
}

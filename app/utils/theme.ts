export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "modelyard-theme";

export function isTheme(v: unknown): v is Theme {
  return typeof v === "string" && (THEMES as readonly string[]).includes(v);
}

/** Reads the remembered theme from a Cookie header; anything unexpected means "system". */
export function themeFromCookie(header: string | null): Theme {
  if (!header) return "system";
  for (const part of header.split(";")) {
    const [k, v] = part.trim().split("=");
    if (k === THEME_COOKIE && isTheme(v)) return v;
  }
  return "system";
}

export function themeCookie(theme: Theme): string {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

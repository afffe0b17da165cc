import "#app/utils/zod-browser.ts";
import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { rootAccess } from "#app/auth/viewer.server.ts";
import { scopeOf } from "#app/utils/request-context.ts";
import { GeneralErrorBoundary } from "#app/ui/general-error-boundary.tsx";
import { SiteFooter } from "#app/ui/site-footer.tsx";
import { SiteHeader } from "#app/ui/site-header.tsx";
import { AccountMenu } from "#app/auth/account-menu.tsx";
import { AccessContext } from "#app/auth/viewer.ts";
import { type Theme, themeFromCookie } from "#app/utils/theme.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  return { theme: themeFromCookie(request.headers.get("Cookie")), access: await rootAccess(request, scopeOf(context).noteUser) };
}

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const theme: Theme = data?.theme ?? "system";
  return (
    <html lang="en" className={theme === "system" ? undefined : theme} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "system" ? "light dark" : theme} />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <SiteHeader theme={theme} account={data?.access ? <AccountMenu access={data.access} /> : null} />
        <main id="main" className="flex-1">
          {data?.access ? <AccessContext.Provider value={data.access}>{children}</AccessContext.Provider> : children}
        </main>
        <SiteFooter />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

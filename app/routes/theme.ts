import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { safeRedirect } from "#app/auth/viewer.server.ts";
import { jsonError, readFormCapped } from "#app/utils/http.server.ts";
import { isTheme, themeCookie } from "#app/utils/theme.ts";

export async function action({ request }: Route.ActionArgs) {
  // A theme and a path back fit in well under 1 KB.
  const form = await readFormCapped(request, 1024);
  const theme = form.get("theme");
  if (!isTheme(theme)) {
    return jsonError(400, "theme must be one of system, light, dark", { field: "theme" });
  }
  return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": themeCookie(theme) } });
}

export function loader() {
  return redirect("/");
}

import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { jsonError } from "#app/utils/http.server.ts";
import { isTheme, themeCookie } from "#app/utils/theme.ts";

/** Only same-site paths are accepted as the place to go back to. */
function safeRedirect(v: FormDataEntryValue | null): string {
  return typeof v === "string" && v.startsWith("/") && !v.startsWith("//") ? v : "/";
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const theme = form.get("theme");
  if (!isTheme(theme)) {
    return jsonError(400, "theme must be one of system, light, dark", { field: "theme" });
  }
  return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": themeCookie(theme) } });
}

export function loader() {
  return redirect("/");
}

import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { cookieValue, SESSION_COOKIE } from "#app/auth/access.server.ts";
import { sessionCookie } from "#app/auth/accounts.server.ts";
import { sha256Hex } from "#app/auth/secrets.server.ts";
import { authConfig, checkCsrf, getViewer, secureCookies } from "#app/auth/viewer.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { deleteSession, deleteUserSessions } from "#app/db/queries/accounts.server.ts";
import { readFormCapped } from "#app/utils/http.server.ts";

/**
 * POST /logout ends this session in the database, so no instance accepts it again;
 * `everywhere=1` ends all of the person's sessions.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormCapped(request, 4 * 1024);
  const id = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
  const clear = sessionCookie("", 0, secureCookies(request, authConfig()));
  if (!id) return redirect("/", { headers: { "Set-Cookie": clear } });
  checkCsrf(request, form);
  const db = getDb().db;
  if (form.get("everywhere") === "1") {
    const viewer = await getViewer(request);
    if (viewer) await deleteUserSessions(db, viewer.id);
  }
  await deleteSession(db, sha256Hex(id));
  return redirect("/", { headers: { "Set-Cookie": clear } });
}

export function loader() {
  return redirect("/login");
}

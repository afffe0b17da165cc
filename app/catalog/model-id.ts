import { z } from "zod";

/**
 * The Hub's model id grammar, the one definition the importer, the routes and the inference
 * gateway check ids against: `name` or `org/name`, each part up to 96 characters of letters,
 * digits, '.', '_' and '-', not starting with '.' or '-', with no '..'.
 */

/** Names the app's own single-segment URLs use: a one-part model id may not be one of them (`/models`, `/settings`, …). */
export const RESERVED_SEGMENTS = [
  "api", "models", "tasks", "spaces", "settings", "playground", "chat-template", "assets", "docs",
  "search", "datasets", "login", "logout", "join", "new", "healthz", "robots.txt", "favicon.ico",
  "manifest.webmanifest", "theme", "resources", "__manifest", "compare", "schemas", "admin", "auth", "invite", "v1", "readyz", "metrics",
] as const;

/**
 * First segments whose two-segment URLs the app itself answers (`/api/*`, `/tasks/:task`, the
 * static `/assets/*`). Only these shadow an `org/name` id; `Playground/myFirstModel`, a real Hub
 * model, stays reachable because `/playground/…` pages take three segments.
 */
export const RESERVED_ORGS = ["api", "tasks", "assets", "settings", "admin", "auth", "invite", "docs", "v1"] as const;

// Checked against all 760k ids of the 2024-07-11 Hub dump: every one matches.
const ID_PATTERN = /^(?:[A-Za-z0-9_][A-Za-z0-9._-]{0,95}\/)?[A-Za-z0-9_][A-Za-z0-9._-]{0,95}$/;

export const MAX_MODEL_ID_LENGTH = 200;

export function isReservedSegment(firstSegment: string): boolean {
  return (RESERVED_SEGMENTS as readonly string[]).includes(firstSegment.toLowerCase());
}

/** Whether the site's own routes would answer this id's URL instead of its model page. */
export function isShadowedModelId(id: string): boolean {
  const [first, second] = id.toLowerCase().split("/");
  return second === undefined ? isReservedSegment(first!) : (RESERVED_ORGS as readonly string[]).includes(first!);
}

// Messages say "model id" so they read well after any field name ("id: …", "model: …").
export const modelIdSchema = z
  .string({ error: "model id must be a string" })
  .trim()
  .min(1, "model id is empty")
  .max(MAX_MODEL_ID_LENGTH, `model id is longer than ${MAX_MODEL_ID_LENGTH} characters`)
  .regex(ID_PATTERN, "model id must look like 'org/name' or 'name' (letters, digits, '.', '_', '-')")
  .refine((id) => !id.includes(".."), "model id must not contain '..'")
  .refine((id) => !isShadowedModelId(id), "model id is a name the site reserves for its own pages (api/…, tasks/…, assets/…, settings/…, admin/…, auth/…, invite/…, or a one-part id such as models or settings)");

/** The id, trimmed, or the first reason it breaks the grammar (for a 400 that names the field). */
export function checkModelId(value: unknown): { ok: true; id: string } | { ok: false; message: string } {
  const parsed = modelIdSchema.safeParse(value);
  if (parsed.success) return { ok: true, id: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? "model id is not valid" };
}

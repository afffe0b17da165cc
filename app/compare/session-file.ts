/**
 * Reading and writing session files in the browser. Reading refuses what is too large, not JSON,
 * or not a valid version-1 session, with a message naming the first problems; what passes is
 * plain data that the page renders as text (never as HTML).
 */
import type { z } from "zod";
import { MAX_SESSION_BYTES, SESSION_SCHEMA_PATH, SESSION_SCHEMA_VERSION, type Session, sessionSchema } from "#app/compare/session-schema.ts";

export type ReadSession = { ok: true; session: Session } | { ok: false; error: string };

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[") : "the file";
    return `${where.slice(0, 120)}: ${issue.message.slice(0, 200)}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  return `${shown.join("; ")}${more}`;
}

/** Validates a session file's text. `byteLength` is the file's size, checked before parsing. */
export function readSessionText(text: string, byteLength = new TextEncoder().encode(text).byteLength): ReadSession {
  if (byteLength > MAX_SESSION_BYTES) return { ok: false, error: `This file is ${(byteLength / 1024 / 1024).toFixed(1)} MB; a session file may be at most ${MAX_SESSION_BYTES / 1024 / 1024} MB.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: "This file is not JSON, so it is not a Modelyard session." };
  }
  if (typeof parsed === "object" && parsed !== null && "schemaVersion" in parsed && parsed.schemaVersion !== SESSION_SCHEMA_VERSION) {
    return { ok: false, error: `This session has schema version ${String(parsed.schemaVersion).slice(0, 20)}; this Modelyard reads version ${SESSION_SCHEMA_VERSION}.` };
  }
  const result = sessionSchema.safeParse(parsed);
  if (!result.success) return { ok: false, error: `This is not a valid Modelyard session (${SESSION_SCHEMA_PATH}): ${describeIssues(result.error)}.` };
  return { ok: true, session: result.data };
}

/**
 * The file's text. `secrets` (the visitor's token) are replaced wherever they appear, say pasted
 * into a message, so a saved file never carries one.
 */
export function sessionFileText(session: Session, secrets: ReadonlyArray<string | null> = []): string {
  let text = JSON.stringify({ $schema: SESSION_SCHEMA_PATH, ...session }, null, 2);
  for (const secret of secrets) if (secret && secret.length >= 8) text = text.split(secret).join("hf_***");
  return `${text}\n`;
}

export function sessionFileName(session: Session): string {
  const stamp = session.savedAt.replace(/[:.]/g, "-").replace(/-\d{3}Z$/, "Z");
  return `modelyard-${session.source}-${session.task}-${stamp}.json`;
}

/** Offers the session as a download. */
export function downloadSession(session: Session, secrets: ReadonlyArray<string | null>): void {
  const blob = new Blob([sessionFileText(session, secrets)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = sessionFileName(session);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** A session from what the page holds (a comparison, or the playground's chat), and back. */
import type { CompareColumnInfo } from "#app/compare/compare-info.ts";
import { SESSION_SCHEMA_VERSION, type Session, type SessionColumn, type SessionTurn } from "#app/compare/session-schema.ts";

export interface SessionSource {
  source: Session["source"];
  task: string;
  modelyardVersion: string;
  system: string;
  parameters: Record<string, number | string | boolean>;
  input: Session["input"];
  columns: Array<{
    info: Pick<CompareColumnInfo, "modelId" | "route" | "snippet">;
    overrides: Readonly<Record<string, number | string | boolean | undefined>>;
    turns: ReadonlyArray<Omit<SessionTurn, "status"> & { status: SessionTurn["status"] | "streaming" }>;
    result: SessionColumn["result"];
  }>;
  now?: Date;
}

/** Only settled turns go in: a reply still streaming is saved as stopped, with what had arrived. */
export function buildSession(s: SessionSource): Session {
  return {
    kind: "modelyard-session",
    schemaVersion: SESSION_SCHEMA_VERSION,
    modelyardVersion: s.modelyardVersion,
    savedAt: (s.now ?? new Date()).toISOString(),
    source: s.source,
    task: s.task,
    system: s.system,
    parameters: s.parameters,
    input: s.input,
    columns: s.columns.map((c) => ({
      modelId: c.info.modelId,
      route: c.info.route,
      parameters: Object.fromEntries(Object.entries(c.overrides).filter((e): e is [string, number | string | boolean] => e[1] !== undefined)),
      snippet: c.info.snippet,
      turns: c.turns.map((t) => ({ role: t.role, content: t.content, status: t.status === "streaming" ? "stopped" : t.status, metrics: t.metrics, error: t.error })),
      result: c.result,
    })),
  };
}

/**
 * "Save session" and "Open session" for the playground's chat: the same file as a comparison,
 * with one column (source "playground"), opened the same way and shown without re-running.
 */
import { lazy, Suspense, useState } from "react";
import { buttonCls } from "#app/compare/compare-styles.ts";
import { buildSession } from "#app/compare/session-build.ts";
import { downloadSession } from "#app/compare/session-file.ts";
import type { Session, SessionColumn, SessionMetrics } from "#app/compare/session-schema.ts";
import { SessionOpener } from "#app/compare/session-opener.tsx";
import type { ChatConversation } from "#app/demos/chat/chat-demo.tsx";
import { readVisitorToken } from "#app/utils/visitor-token.ts";

// The view draws any task's output, so it is its own chunk, loaded when a file is opened: the
// playground's first load stays the size of its own demo.
const SessionView = lazy(() => import("#app/compare/session-view.tsx").then((m) => ({ default: m.SessionView })));

type Final = NonNullable<ChatConversation["turns"][number]["final"]>;

function metricsOf(final: Final | undefined): SessionMetrics | null {
  if (!final) return null;
  const u = final.usage;
  return { timeToFirstTokenMs: final.timing.timeToFirstTokenMs, tokensPerSecond: final.timing.tokensPerSecond, totalMs: final.timing.totalMs, promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens: u.totalTokens, usageSource: u.source };
}

export function PlaygroundSessionBar({
  modelId,
  conversation,
  modelyardVersion,
  snippet,
  opened,
  onOpen,
}: {
  modelId: string;
  conversation: ChatConversation | null;
  modelyardVersion: string;
  snippet: SessionColumn["snippet"];
  opened: Session | null;
  onOpen: (s: Session | null) => void;
}) {
  const [saved, setSaved] = useState(false);
  function save() {
    if (!conversation) return;
    const session = buildSession({
      source: "playground",
      task: "text-generation",
      modelyardVersion,
      system: conversation.system,
      parameters: { ...conversation.parameters },
      input: { text: "", fileName: null },
      columns: [
        {
          info: { modelId, route: conversation.provider, snippet },
          overrides: {},
          turns: conversation.turns.map((t) => ({ role: t.role, content: t.content, status: t.status, metrics: metricsOf(t.final), error: t.error ?? null })),
          result: null,
        },
      ],
    });
    downloadSession(session, [readVisitorToken()]);
    setSaved(true);
  }
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm" data-session-bar="">
        <button type="button" onClick={save} disabled={!conversation || conversation.turns.length === 0} className={buttonCls}>
          Save session
        </button>
        <SessionOpener onOpen={onOpen} />
        {saved ? <span className="text-xs text-gray-600 dark:text-gray-400">Saved to your downloads.</span> : null}
      </div>
      {opened ? (
        <Suspense fallback={<p className="text-xs text-gray-700 dark:text-gray-300">Opening the session…</p>}>
          <SessionView session={opened} onClose={() => onOpen(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}

/**
 * An opened session file (session-opener.tsx), shown as it was saved, without running anything.
 * Everything in it is rendered as text (replies through the chat demo's text-node markdown), so a
 * hostile file's strings stay inert.
 */
import { Fragment } from "react";
import { ChatColumnBody, ColumnHeader, ErrorInPlace, TaskColumnBody } from "#app/compare/column-view.tsx";
import { compareHref } from "#app/compare/compare-setup.ts";
import { isCompareTask } from "#app/compare/compare-tasks.ts";
import type { Session } from "#app/compare/session-schema.ts";
import { newTurnId } from "#app/compare/use-compare.ts";
import { MASK_TOKEN_PLACEHOLDER, MaskTokenNote } from "#app/snippets/mask-token-note.tsx";
import { formatMinuteUtc } from "#app/utils/format.ts";

export function SessionView({ session, onClose }: { session: Session; onClose: () => void }) {
  const live = isCompareTask(session.task) ? compareHref({ task: session.task, columns: session.columns.map((c) => ({ modelId: c.modelId, route: c.route })) }) : null;
  const params = Object.entries(session.parameters);
  return (
    <div className="space-y-3" data-session-view="">
      <div role="status" className="rounded-md border border-indigo-200 bg-indigo-50 p-2 text-sm text-indigo-950 dark:border-indigo-800 dark:bg-indigo-950/40 dark:text-indigo-100">
        <p>
          A saved session ({session.source === "playground" ? "playground chat" : "comparison"}, {session.task}), saved{" "}
          <time dateTime={session.savedAt}>{formatMinuteUtc(session.savedAt) ?? session.savedAt}</time> with Modelyard {session.modelyardVersion}. Nothing
          has been run again.
        </p>
        <div className="mt-1 flex flex-wrap gap-2">
          {live ? (
            <a href={live} className="underline">
              Run this setup live
            </a>
          ) : null}
          <button type="button" onClick={onClose} className="underline">
            Close the session
          </button>
        </div>
      </div>
      {session.system || params.length > 0 || session.input.text || session.input.fileName ? (
        <dl className="grid gap-1 text-xs sm:grid-cols-[auto_1fr]">
          {session.system ? (
            <>
              <dt className="font-medium">System prompt</dt>
              <dd className="whitespace-pre-wrap break-words">{session.system}</dd>
            </>
          ) : null}
          {params.length > 0 ? (
            <>
              <dt className="font-medium">Shared parameters</dt>
              <dd className="break-words">{params.map(([k, v]) => `${k} ${String(v)}`).join(" · ")}</dd>
            </>
          ) : null}
          {session.input.text ? (
            <>
              <dt className="font-medium">Input</dt>
              <dd className="whitespace-pre-wrap break-words">{session.input.text}</dd>
            </>
          ) : null}
          {[
            ["Context", session.input.context],
            ["Candidate labels", session.input.candidateLabels?.join(", ")],
            ["Sentences compared", session.input.sentences?.join("\n")],
          ].map(([name, value]) =>
            value ? (
              <Fragment key={name}>
                <dt className="font-medium">{name}</dt>
                <dd className="whitespace-pre-wrap break-words">{value}</dd>
              </Fragment>
            ) : null,
          )}
          {session.input.fileName ? (
            <>
              <dt className="font-medium">File sent</dt>
              <dd className="break-words">{session.input.fileName} (not kept in the session)</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <div className={`grid gap-3 ${session.columns.length > 1 ? "md:grid-cols-2" : ""} ${session.columns.length > 2 ? "xl:grid-cols-3" : ""}`}>
        {session.columns.map((c, i) => (
          <section key={`${c.modelId}@${c.route}-${i}`} aria-label={`${c.modelId} on ${c.route}`} className="space-y-2 rounded-lg border border-gray-200 p-3 dark:border-gray-800" data-session-column="">
            <ColumnHeader info={{ modelId: c.modelId, route: c.route, label: c.route, problem: null, snippet: c.snippet }} index={i} />
            {Object.keys(c.parameters).length > 0 ? (
              <p className="text-xs text-gray-600 dark:text-gray-400">
                Own parameters:{" "}
                {Object.entries(c.parameters)
                  .map(([k, v]) => `${k} ${String(v)}`)
                  .join(" · ")}
              </p>
            ) : null}
            {c.turns.length > 0 ? <ChatColumnBody turns={c.turns.map((t) => ({ ...t, id: newTurnId() }))} busy={false} readOnly /> : null}
            {c.result ? c.result.kind === "error" ? <ErrorInPlace error={c.result.error} /> : <TaskColumnBody task={session.task} result={c.result} sent={session.input} media={null} busy={false} modelId={c.modelId} /> : null}
            {c.snippet ? (
              <details className="text-xs">
                <summary className="cursor-pointer select-none">Code ({c.snippet.client})</summary>
                <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-gray-50 p-2 font-mono dark:bg-gray-900">{c.snippet.code}</pre>
                {c.snippet.code.includes(MASK_TOKEN_PLACEHOLDER) ? <MaskTokenNote className="mt-1 text-xs" /> : null}
              </details>
            ) : null}
          </section>
        ))}
      </div>
    </div>
  );
}

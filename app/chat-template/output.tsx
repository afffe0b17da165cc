import type { ReactNode } from "react";
import { CopyButton } from "#app/ui/copy-button.tsx";
import type { PreviewOutcome } from "#app/chat-template/preview-outcome.ts";
import type { RenderError } from "#app/chat-template/render-types.ts";
import { buildSegments, findSpecialTokens, visibleWhitespace, type OutputSegment } from "#app/chat-template/output-segments.ts";

const ERROR_TITLES: Record<RenderError["kind"], string> = {
  syntax: "Template syntax error",
  runtime: "The template failed while rendering",
  raised: "The template rejected this conversation (raise_exception)",
  limit: "Rendering stopped at a limit",
  timeout: "Rendering took too long and was stopped",
  unavailable: "The renderer is unavailable",
  busy: "The renderer is busy",
};

/** A render error with its position and the template lines around it, never a blank panel. */
export function RenderErrorPanel({ error, templateName }: { error: RenderError; templateName?: string | null }) {
  const where =
    error.line !== null ? `Line ${error.line}${error.column !== null ? `, column ${error.column}` : ""}${templateName ? ` of template “${templateName}”` : ""}` : null;
  return (
    <div role="alert" data-ct-error={error.kind} className="space-y-2 p-3 text-sm">
      <p className="font-semibold text-red-800 dark:text-red-300">{ERROR_TITLES[error.kind]}</p>
      <p className="break-words whitespace-pre-wrap text-gray-900 dark:text-gray-100" data-ct-error-message="">
        {error.message}
      </p>
      {where ? (
        <p className="font-medium text-gray-700 dark:text-gray-300" data-ct-error-position="">
          {where}
        </p>
      ) : null}
      {error.excerpt ? (
        <pre
          className="overflow-x-auto rounded-md border border-red-200 bg-red-50 p-2 font-mono text-[12px] leading-snug text-gray-900 dark:border-red-900 dark:bg-red-950/40 dark:text-gray-100"
          data-ct-error-excerpt=""
        >
          {error.excerpt}
        </pre>
      ) : null}
    </div>
  );
}

function SegmentText({ segment, whitespace, side }: { segment: OutputSegment; whitespace: boolean; side: "a" | "b" | null }) {
  const content: ReactNode = whitespace
    ? visibleWhitespace(segment.text).map((piece, i) =>
        piece.marker ? (
          <span key={i} className="text-gray-400 select-none dark:text-gray-500" data-ws-marker="">
            {piece.text}
          </span>
        ) : (
          piece.text
        ),
      )
    : segment.text;
  let className = "";
  if (segment.special) className += " rounded-sm bg-amber-100 text-amber-900 ring-1 ring-amber-300 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-500/40";
  if (segment.changed) {
    className +=
      side === "a"
        ? " bg-red-200/70 text-red-950 dark:bg-red-500/30 dark:text-red-100"
        : " bg-green-200/70 text-green-950 dark:bg-green-500/30 dark:text-green-100";
  }
  if (!className) return <>{content}</>;
  return (
    <span className={className.trim()} data-special={segment.special ? "" : undefined} data-changed={segment.changed ? "" : undefined}>
      {content}
    </span>
  );
}

/**
 * The rendered prompt: special tokens highlighted, whitespace visible on demand, diff ranges
 * marked in compare mode. Or the error (template or input) in place of the text.
 */
export function ChatTemplateOutput({
  outcome,
  whitespace,
  specialTokens,
  changed = [],
  side = null,
  title = "Rendered prompt",
  status,
  templateName = null,
}: {
  outcome: PreviewOutcome;
  whitespace: boolean;
  specialTokens: ReadonlyArray<string | null>;
  changed?: ReadonlyArray<[number, number]>;
  side?: "a" | "b" | null;
  title?: string;
  status?: ReactNode;
  templateName?: string | null;
}) {
  const text = outcome.kind === "text" ? outcome.text : null;
  const segments = text !== null ? buildSegments(text, findSpecialTokens(text, specialTokens), changed) : [];
  return (
    <figure
      className="overflow-hidden rounded-lg border border-gray-200 dark:border-gray-800"
      data-ct-output-panel={side ?? "single"}
      aria-live="polite"
    >
      <figcaption className="flex flex-wrap items-center justify-between gap-2 border-b border-gray-200 bg-gray-50 px-3 py-1.5 text-xs text-gray-700 dark:border-gray-800 dark:bg-gray-900 dark:text-gray-300">
        <span className="flex items-center gap-2 font-medium">
          {title}
          {status}
        </span>
        {text !== null ? (
          <span className="flex items-center gap-3">
            <span className="tabular-nums text-gray-500 dark:text-gray-400">{text.length.toLocaleString("en-US")} chars</span>
            <CopyButton text={text} description="rendered prompt" />
          </span>
        ) : null}
      </figcaption>
      {outcome.kind === "text" ? (
        text === "" ? (
          <p className="p-3 text-sm text-gray-600 italic dark:text-gray-400" data-ct-output="">
            The template rendered an empty string.
          </p>
        ) : (
          <pre
            className="max-h-[36rem] overflow-auto bg-white p-3 font-mono text-[13px] leading-relaxed break-words whitespace-pre-wrap text-gray-900 dark:bg-gray-950 dark:text-gray-100"
            data-ct-output=""
            tabIndex={0}
          >
            {segments.map((segment, i) => (
              <SegmentText key={i} segment={segment} whitespace={whitespace} side={side} />
            ))}
          </pre>
        )
      ) : outcome.kind === "error" ? (
        <RenderErrorPanel error={outcome.error} templateName={templateName} />
      ) : (
        <div role="alert" className="p-3 text-sm" data-ct-input-error="">
          <p className="font-semibold text-amber-800 dark:text-amber-300">Check your input</p>
          <p className="mt-1 text-gray-900 dark:text-gray-100">
            {outcome.field}: {outcome.message}
          </p>
        </div>
      )}
    </figure>
  );
}

import type { LiveDetailsNotice as Notice } from "#app/model-page/live.server.ts";

/** "The Hub answered HTTP 503." -> "the Hub answered HTTP 503", to follow a colon mid-sentence. */
const clause = (detail: string) => detail.replace(/^The /, "the ").replace(/\.$/, "");

const WHY: Record<Notice["reason"], (n: Notice) => string> = {
  timeout: (n) => `the Hub did not answer within ${n.deadlineSeconds} seconds (timed out)`,
  "not-found": () => "the Hub has no public model with this id (not on the Hub)",
  "hub-error": (n) => `of a Hub error: ${clause(n.detail)}`,
  invalid: (n) => `the Hub's answer could not be used: ${clause(n.detail)}`,
};

/** Live details (MODELYARD_LIVE=1) were wanted and not had: what the page shows instead, and what to do. */
export function LiveDetailsNotice({ notice, modelId }: { notice: Notice; modelId: string }) {
  const retry = notice.retryAt.slice(11, 16);
  return (
    <div
      role="status"
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700/60 dark:bg-amber-950/40 dark:text-amber-100"
      data-live-notice={notice.reason}
    >
      <p className="font-semibold">Live details could not be fetched</p>
      <p className="mt-1">
        This page shows what the catalogue holds for {modelId}, because {WHY[notice.reason](notice)}.
      </p>
      <p className="mt-1">
        {notice.reason === "not-found"
          ? "Import the card and files yourself with "
          : `Reload after ${retry} UTC to ask the Hub again, or import the card and files yourself with `}
        <code className="font-mono text-[13px]">modelyard import</code> (a card folder or a model folder).
      </p>
    </div>
  );
}

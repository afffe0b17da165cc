/**
 * The model page's side of live details (ADR 0016): when the mode is on and the record lacks its
 * card, files or full Hub record, ask the Hub once within the deadline and read the stored result
 * back; otherwise say why the page shows only what the catalogue holds.
 */
import type { CatalogModel } from "#app/catalog/model-record.ts";
import type { HubFailureKind } from "#app/import/hub-client.server.ts";
import { getLiveDetails, needsLiveDetails } from "#app/import/live-details.server.ts";

/** Shown on the page when live details were wanted and could not be had. */
export interface LiveDetailsNotice {
  reason: HubFailureKind;
  /** The client's short reason, e.g. "The Hub answered HTTP 503." */
  detail: string;
  /** When a reload may ask the Hub again (ISO time). */
  retryAt: string;
  deadlineSeconds: number;
}

export async function withLiveDetails(
  model: CatalogModel | null,
  reload: () => Promise<CatalogModel | null>,
): Promise<{ model: CatalogModel | null; live: LiveDetailsNotice | null }> {
  if (!model || !needsLiveDetails(model)) return { model, live: null };
  const live = await getLiveDetails();
  if (!live) return { model, live: null };
  const outcome = await live.ensure(model);
  if (outcome.state === "stored") return { model: (await reload()) ?? model, live: null };
  return {
    model,
    live: {
      reason: outcome.reason,
      detail: outcome.message,
      retryAt: new Date(outcome.retryAt).toISOString(),
      deadlineSeconds: Math.round(live.deadlineMs / 100) / 10,
    },
  };
}

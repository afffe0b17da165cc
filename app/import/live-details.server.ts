/**
 * Live details on demand (ADR 0016): with MODELYARD_LIVE=1, a model page whose record lacks its
 * card, files or full Hub record asks the Hub once, through the shared Hub client, and stores the
 * answer with the importer's own write path, so every server instance and every later visit has it.
 *
 * - One fetch per model at a time: concurrent visits share the promise in flight.
 * - Each outcome is remembered (5 minutes by default, in a byte-bounded LRU), so a broken or slow
 *   Hub, or a repo the Hub gives no files, costs each model one attempt per period, not one per visit.
 * - The page waits at most the deadline; the fetch itself is aborted at the same deadline, and a
 *   write that finishes after the page gave up still lands for the next visit.
 */
import type { CatalogModel } from "#app/catalog/model-record.ts";
import type * as ValidateModule from "#app/chat-template/validate.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import { type HubClient, type HubFailureKind, type HubRecord, HubFetchError, createHubClient } from "#app/import/hub-client.server.ts";
import { type TemplateValidator, importItems } from "#app/import/importer.server.ts";
import { Lru } from "#app/utils/lru.ts";

export type LiveOutcome =
  | { state: "stored" }
  | { state: "failed"; reason: HubFailureKind; message: string; retryAt: number };

export interface LiveDetails {
  /** Fetches and stores the model's Hub details, or says why not, within the deadline. */
  ensure(model: Pick<CatalogModel, "id" | "cardMarkdown">): Promise<LiveOutcome>;
  readonly deadlineMs: number;
}

export interface LiveDetailsOptions {
  db: () => DatabaseHandle;
  client: HubClient;
  deadlineMs: number;
  /** How long a failure is remembered before the next visit may try again. */
  failureTtlMs?: number;
  /** Budget of the failure memory; entries are tiny, so the default holds thousands. */
  failureCacheBytes?: number;
  validateTemplate?: TemplateValidator;
  now?: () => number;
}

/**
 * Whether the page should ask the Hub: no card or no file list. A model imported from a local
 * folder has both (and no commit sha, which is no reason to ask), so it is never sent to the Hub.
 */
export function needsLiveDetails(model: Pick<CatalogModel, "cardMarkdown" | "siblings">): boolean {
  return model.cardMarkdown === null || model.siblings.length === 0;
}

/**
 * The Hub's counts and provider mappings are today's; the catalogue's are a dated snapshot shared
 * by every model. Taking them from one visit would put one model's live values among snapshot ones
 * and reorder listings and provider filters on page views (and an unexpanded record carries no
 * mapping at all, which would read as "withdrawn"), so only the details are kept.
 */
function detailsOnly(record: HubRecord, stored: CatalogModel | null): HubRecord {
  const out: HubRecord = { id: record.id };
  if (record.readme !== undefined) out.readme = record.readme;
  // A page view fills what the catalogue lacks and never replaces what an import stored (a local
  // folder's config and files, a card's front matter): the importer takes any field present.
  const take = <K extends keyof HubRecord>(key: K, catalogueHasIt: boolean) => {
    if (!catalogueHasIt && record[key] !== undefined) out[key] = record[key];
  };
  take("sha", stored?.sha != null);
  take("lastModified", stored?.lastModified != null);
  take("createdAt", stored?.createdAt != null);
  take("gated", stored?.sha != null);
  take("pipeline_tag", stored?.pipelineTag != null);
  take("library_name", stored?.libraryName != null);
  take("tags", (stored?.tags.length ?? 0) > 0);
  take("siblings", (stored?.siblings.length ?? 0) > 0);
  take("config", stored?.config != null);
  take("cardData", stored?.cardData != null);
  take("safetensors", stored?.safetensors != null);
  take("gguf", stored?.gguf != null);
  // A derived value gives way to the Hub's own; an imported Hub value stays.
  take("transformersInfo", stored?.transformersInfoSource === "hub");
  take("widgetData", stored?.widgetData != null);
  take("model-index", stored?.modelIndex != null);
  take("spaces", (stored?.spaces.length ?? 0) > 0);
  return out;
}

export function createLiveDetails(opts: LiveDetailsOptions): LiveDetails {
  const now = opts.now ?? Date.now;
  const ttl = opts.failureTtlMs ?? 5 * 60_000;
  // Successes are remembered too: a repo the Hub itself gives no files or card must not be asked again on every visit.
  const remembered = new Lru<Extract<LiveOutcome, { state: "failed" }> | { state: "stored"; retryAt: number }>({
    maxBytes: opts.failureCacheBytes ?? 512 * 1024,
    sizeOf: (f) => 64 + (f.state === "failed" ? f.message.length * 2 : 0),
  });
  const inFlight = new Map<string, Promise<LiveOutcome>>();

  const run = async (id: string, withReadme: boolean): Promise<LiveOutcome> => {
    try {
      const handle = opts.db();
      const record = await opts.client.fetchModel(id, { signal: AbortSignal.timeout(opts.deadlineMs), withReadme });
      const stored = await getModelById(handle.db, id);
      const items = (async function* () {
        yield { kind: "record" as const, source: "live:huggingface", line: 1, value: detailsOnly(record, stored) };
      })();
      const summary = await importItems(handle, items, { validateTemplate: opts.validateTemplate });
      if (summary.rejected > 0) {
        throw new HubFetchError("invalid", `The Hub's record was rejected by the importer (${summary.rejections[0]?.reason ?? "unknown reason"}).`);
      }
      remembered.set(id, { state: "stored", retryAt: now() + ttl });
      return { state: "stored" };
    } catch (e) {
      const failure: Extract<LiveOutcome, { state: "failed" }> =
        e instanceof HubFetchError
          ? { state: "failed", reason: e.kind, message: e.message, retryAt: now() + ttl }
          : { state: "failed", reason: "hub-error", message: `Storing the Hub's details failed (${(e as Error).message}).`, retryAt: now() + ttl };
      remembered.set(id, failure);
      return failure;
    } finally {
      inFlight.delete(id);
    }
  };

  const ensure: LiveDetails["ensure"] = async ({ id, cardMarkdown }) => {
    const known = remembered.get(id);
    if (known && known.retryAt > now()) return known.state === "stored" ? { state: "stored" } : known;
    let pending = inFlight.get(id);
    if (!pending) {
      // A card already in the catalogue (say, an imported card folder) is kept: the README is only asked for when missing.
      pending = run(id, cardMarkdown === null);
      inFlight.set(id, pending);
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<LiveOutcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ state: "failed", reason: "timeout", message: "The Hub did not answer in time.", retryAt: now() + ttl }),
        opts.deadlineMs,
      );
      timer.unref();
    });
    try {
      return await Promise.race([pending, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };

  return { ensure, deadlineMs: opts.deadlineMs };
}

// -------------------------------------------------------------------------------------------
// The process's instance, built from the validated environment on first use.

let instance: LiveDetails | null | undefined;

/** The live-details service when MODELYARD_LIVE=1, else null. */
export async function getLiveDetails(): Promise<LiveDetails | null> {
  if (instance !== undefined) return instance;
  const { getEnv } = await import("#app/utils/env.server.ts");
  const env = getEnv();
  if (!env.MODELYARD_LIVE) return (instance = null);
  const { getDb } = await import("#app/db/db.server.ts");
  let validator: typeof ValidateModule | null = null;
  instance = createLiveDetails({
    db: getDb,
    client: createHubClient({ hubUrl: env.MODELYARD_HUB_URL, override: env.MODELYARD_UPSTREAM_OVERRIDE ?? null }),
    deadlineMs: env.MODELYARD_LIVE_DEADLINE_MS,
    // The sandbox only starts when a fetched record carries a chat template.
    validateTemplate: async (source, bos, eos) => {
      validator ??= await import("#app/chat-template/validate.server.ts");
      return validator.validateChatTemplate(source, bos, eos);
    },
  });
  return instance;
}

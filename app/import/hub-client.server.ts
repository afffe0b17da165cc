/**
 * The one Hub client Modelyard has: `modelyard import --hub <id>…` and the model page's live
 * details (ADR 0016) both fetch a model through it. It asks for exactly two URLs per model,
 *   GET <hub>/api/models/<id>?blobs=true     the full record (siblings with sizes, config, cardData)
 *   GET <hub>/<id>/raw/main/README.md         the card, only when asked for
 * validates both with the importer's record schema, and returns a record the importer's write
 * path takes as it is. With MODELYARD_UPSTREAM_OVERRIDE set, both go to
 * `<override>/<hub host><path>` instead, the scheme the gateway uses; redirects are not followed,
 * so no answer can send the client to another host.
 */
import type { z } from "zod";
import { modelIdSchema } from "#app/catalog/model-id.ts";
import { originalFetch, toOverrideUrl } from "#app/inference/hub-fetch.server.ts";
import { MAX_LINE_BYTES } from "#app/import/read-sources.server.ts";
import { MAX_CARD_BYTES, describeIssues, importRecordSchema } from "#app/import/record-schema.ts";
import { readBytesCapped } from "#app/utils/http.server.ts";

/** Why a fetch failed, in the words the page uses: it timed out, the Hub has no such model, the Hub erred, or its answer was unusable. */
export type HubFailureKind = "timeout" | "not-found" | "hub-error" | "invalid";

export class HubFetchError extends Error {
  override name = "HubFetchError";
  constructor(
    readonly kind: HubFailureKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface HubClientOptions {
  /** MODELYARD_HUB_URL, e.g. https://huggingface.co. */
  hubUrl: string;
  /** MODELYARD_UPSTREAM_OVERRIDE, or null. */
  override: string | null;
  /** Defaults to the process's fetch from before the gateway's scoped hook. */
  fetch?: typeof fetch;
}

/** A validated Hub record in the importer's input shape (`readme` set when the card was asked for). */
export type HubRecord = z.infer<typeof importRecordSchema> & { id: string };

export interface HubClient {
  /** The URLs the client would request for a model, after the override (for logs and tests). */
  urls(id: string): { model: string; readme: string };
  fetchModel(id: string, opts: { signal?: AbortSignal; withReadme: boolean }): Promise<HubRecord>;
}

/** `org/name` with each segment encoded; the id grammar has already ruled out '..' and other tricks. */
function idPath(id: string): string {
  return id.split("/").map(encodeURIComponent).join("/");
}

/** Reads a body up to `limit` bytes; a longer body is refused rather than buffered. */
async function readCapped(res: Response, limit: number, what: string): Promise<string> {
  const tooLarge = () => new HubFetchError("invalid", `The Hub's ${what} is larger than ${Math.round(limit / 1024 / 1024)} MB.`);
  return (await readBytesCapped(res, limit, tooLarge)).toString("utf8");
}

function isAbort(e: unknown): boolean {
  return e instanceof Error && (e.name === "AbortError" || e.name === "TimeoutError");
}

export function createHubClient(opts: HubClientOptions): HubClient {
  const hub = new URL(opts.hubUrl.replace(/\/+$/, ""));
  const base = hub.href.replace(/\/+$/, "");
  const route = (url: string): string => (opts.override ? toOverrideUrl(new URL(url), opts.override) : url);
  const doFetch = opts.fetch ?? originalFetch();

  const urls = (id: string) => ({
    model: route(`${base}/api/models/${idPath(id)}?blobs=true`),
    readme: route(`${base}/${idPath(id)}/raw/main/README.md`),
  });

  const get = async (url: string, signal: AbortSignal | undefined, accept: string): Promise<Response> => {
    let res: Response;
    try {
      res = await doFetch(url, { method: "GET", headers: { Accept: accept }, signal: signal ?? null, redirect: "manual" });
    } catch (e) {
      if (isAbort(e) || signal?.aborted) throw new HubFetchError("timeout", "The Hub did not answer in time.");
      throw new HubFetchError("hub-error", `The Hub could not be reached (${(e as Error).message}).`);
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      // The Hub redirects renamed repos; following would leave the one URL this client may ask for.
      throw new HubFetchError("hub-error", `The Hub answered with a redirect (HTTP ${res.status}), which is not followed.`, res.status);
    }
    return res;
  };

  // Reading the body can hit the deadline too: map that to "timeout" as well.
  const read = async (res: Response, limit: number, what: string, signal: AbortSignal | undefined): Promise<string> => {
    try {
      return await readCapped(res, limit, what);
    } catch (e) {
      if (e instanceof HubFetchError) throw e;
      if (isAbort(e) || signal?.aborted) throw new HubFetchError("timeout", "The Hub did not answer in time.");
      throw new HubFetchError("hub-error", `The Hub's answer broke off (${(e as Error).message}).`);
    }
  };

  const fetchModel: HubClient["fetchModel"] = async (rawId, { signal, withReadme }) => {
    const checked = modelIdSchema.safeParse(rawId);
    if (!checked.success) throw new HubFetchError("invalid", `'${rawId}' is not a model id.`);
    const id = checked.data;
    const u = urls(id);

    // Both requests at once: the deadline covers the slower of the two, not their sum.
    const [modelSettled, readmeSettled] = await Promise.allSettled([
      get(u.model, signal, "application/json"),
      withReadme ? get(u.readme, signal, "text/plain, text/markdown") : Promise.resolve(null),
    ]);
    // A card that could not be had leaves the card missing; the record's details still count.
    const readmeRes = readmeSettled.status === "fulfilled" ? readmeSettled.value : null;
    if (modelSettled.status === "rejected") {
      await readmeRes?.body?.cancel().catch(() => {});
      throw modelSettled.reason;
    }
    const modelRes = modelSettled.value;

    if (modelRes.status === 404 || modelRes.status === 401) {
      // The Hub answers 401 for a repository that does not exist (or is private) when asked without a token.
      await modelRes.body?.cancel();
      await readmeRes?.body?.cancel();
      throw new HubFetchError("not-found", `The Hub has no public model '${id}' (HTTP ${modelRes.status}).`, modelRes.status);
    }
    if (!modelRes.ok) {
      await modelRes.body?.cancel();
      await readmeRes?.body?.cancel();
      throw new HubFetchError("hub-error", `The Hub answered HTTP ${modelRes.status}.`, modelRes.status);
    }
    const text = await read(modelRes, MAX_LINE_BYTES, "model record", signal);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      await readmeRes?.body?.cancel();
      throw new HubFetchError("invalid", "The Hub's model record is not JSON.");
    }
    const parsed = importRecordSchema.safeParse(json);
    if (!parsed.success) {
      await readmeRes?.body?.cancel();
      throw new HubFetchError("invalid", `The Hub's model record is malformed (${describeIssues(parsed.error)}).`);
    }
    const recordId = parsed.data.id ?? parsed.data.modelId;
    if (recordId !== id) {
      await readmeRes?.body?.cancel();
      throw new HubFetchError("invalid", `The Hub answered with a record for '${recordId ?? "no id"}' instead of '${id}'.`);
    }
    // The importer takes `readme` as the card; a record's own copy would not be the Hub's current card.
    const record: HubRecord = { ...parsed.data, id };
    delete record.readme;

    if (readmeRes) {
      if (readmeRes.status === 404) {
        // The repository has no README: an empty card says so, and stops later visits asking again.
        await readmeRes.body?.cancel();
        record.readme = "";
      } else if (!readmeRes.ok) {
        // The card stays missing (a later visit asks again); the record is still worth storing.
        await readmeRes.body?.cancel();
      } else {
        const card = await read(readmeRes, MAX_CARD_BYTES, "model card", signal).catch((e: unknown) => {
          if (signal?.aborted) throw e;
          return null;
        });
        if (card !== null && importRecordSchema.shape.readme.safeParse(card).success) record.readme = card;
      }
    }
    return record;
  };

  return { urls, fetchModel };
}

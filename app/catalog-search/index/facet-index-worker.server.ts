/**
 * Builds one catalogue generation's facet index in a worker thread, over a connection of its own
 * (app/catalog-search/index/facet-index-thread.server.ts starts it), and posts the index back as parts
 * whose buffers are transferred. The build reads and parses every row: its garbage is this
 * thread's to collect, not the event loop's that serves requests (issue 14, ADR 0032).
 */
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { readFacetIndex } from "#app/catalog-search/facets.server.ts";
import type { FacetIndexParts } from "#app/catalog-search/index/facet-index.server.ts";
import { loadSavedIndex, saveIndexParts } from "#app/catalog-search/index/index-store.server.ts";
import { openDatabase } from "#app/db/client.server.ts";
import { getEnv } from "#app/utils/env.server.ts";

export interface IndexWorkerData {
  url: string;
  generation: number;
}

/** The index as parts (null: the catalogue cannot be indexed), and whether it was loaded from its save or built. */
export type IndexWorkerReply = { parts: FacetIndexParts | null; loaded: boolean; saveError?: string } | { error: string };

const port = parentPort;
if (port) {
  const { url, generation } = workerData as IndexWorkerData;
  // On Linux a nice value is a thread's own, so this thread alone runs ten steps nicer: on a small
  // machine the server's event loop gets a core first, and the build the time it leaves. (Elsewhere
  // setpriority() may reach the whole process, the event loop with it, so it is left alone.)
  if (process.platform === "linux") {
    try {
      os.setPriority(Math.min(19, os.getPriority() + 10));
    } catch {
      // Builds at the priority it has.
    }
  }
  void (async () => {
    let handle: ReturnType<typeof openDatabase> | null = null;
    try {
      handle = openDatabase(url, { readOnly: true });
      // A load that fails (the database busy, a connection dropped) builds, and replaces nothing.
      const saved = await loadSavedIndex(handle.db, generation, getEnv().MODELYARD_LISTING_INDEX).catch(() => ({ none: true }) as const);
      if ("parts" in saved) {
        port.postMessage({ parts: saved.parts, loaded: true } satisfies IndexWorkerReply, transferOf(saved.parts));
        return;
      }
      const replacing = "broken" in saved ? [saved.broken] : [];
      const index = await readFacetIndex(handle, generation);
      const out = index?.toParts() ?? null;
      // Saved before it is sent, because sending moves the arrays out of this thread. A save that
      // fails (a full disk, a read-only database) costs the next start a build, nothing else.
      const saveError = out ? await save(url, out.parts, replacing) : undefined;
      const reply: IndexWorkerReply = { parts: out?.parts ?? null, loaded: false, ...(saveError ? { saveError } : {}) };
      port.postMessage(reply, out?.transfer ?? []);
    } catch (error) {
      const reply: IndexWorkerReply = { error: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    } finally {
      await handle?.close();
    }
  })();
}

/** Saves the parts over a writable connection of this thread's own; the error's text if it failed. */
async function save(url: string, parts: FacetIndexParts, replacing: string[]): Promise<string | undefined> {
  const writer = openDatabase(url);
  try {
    await saveIndexParts(writer.db, parts, replacing);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await writer.close();
  }
}

/** Every distinct buffer under `parts`, to move rather than copy. */
function transferOf(parts: FacetIndexParts): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const visit = (value: unknown): void => {
    if (ArrayBuffer.isView(value)) {
      if (value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
    } else if (value && typeof value === "object") for (const v of Object.values(value)) visit(v);
  };
  visit(parts);
  return [...buffers];
}

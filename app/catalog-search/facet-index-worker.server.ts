/**
 * Builds one catalogue generation's facet index in a worker thread, over a connection of its own
 * (app/catalog-search/facet-index-thread.server.ts starts it), and posts the index back as parts
 * whose buffers are transferred. The build reads and parses every row: its garbage is this
 * thread's to collect, not the event loop's that serves requests (issue 14, ADR 0032).
 */
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { readFacetIndex } from "#app/catalog-search/facets.server.ts";
import type { FacetIndexParts } from "#app/catalog-search/facet-index.server.ts";
import { openDatabase } from "#app/db/client.server.ts";

export interface IndexWorkerData {
  url: string;
  generation: number;
}

export type IndexWorkerReply = { parts: FacetIndexParts | null } | { error: string };

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
      const index = await readFacetIndex(handle, generation);
      const out = index?.toParts() ?? null;
      const reply: IndexWorkerReply = { parts: out?.parts ?? null };
      port.postMessage(reply, out?.transfer ?? []);
    } catch (error) {
      const reply: IndexWorkerReply = { error: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    } finally {
      await handle?.close();
    }
  })();
}

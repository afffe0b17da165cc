import { Worker } from "node:worker_threads";
import { FacetIndex } from "#app/catalog-search/index/facet-index.server.ts";
import type { IndexWorkerData, IndexWorkerReply } from "#app/catalog-search/index/facet-index-worker.server.ts";
import { yieldToEventLoop } from "#app/utils/time-slice.server.ts";
import { workerStart } from "#app/utils/worker-start.server.ts";
import { log } from "#app/utils/logger.server.ts";

// The server build rewrites this URL to the worker's emitted chunk (server/worker-entry-plugin.ts).
const ENTRY = new URL("./facet-index-worker.server.ts", import.meta.url);

// The build holds the builder's dictionaries and growing columns, and the rows of one slice at a
// time; at 760k rows its heap stays well under this. A catalogue that outgrows it fails the build,
// and the database answers listings, as for any failed build.
const WORKER_HEAP_MB = 192;
// V8 sizes a thread's young generation for throughput, tens of MB. The build's garbage is short
// lived, and while the build runs its heap sits beside the serving one, so a small young generation
// lowers the process's peak: by about 35 MB at 760k rows, for a build up to a second longer (ADR 0032).
const WORKER_YOUNG_MB = 4;

/**
 * Loads `generation`'s facet index as saved with the catalogue (index-store.server.ts), or builds
 * and saves it, in a worker thread with its own connection to `url`, and resolves with it (null when
 * the row ids are too sparse to index) and whether it was loaded. The dictionaries are made
 * again here from their values; the typed arrays arrive without a copy.
 */
export function buildFacetIndexInThread(url: string, generation: number): Promise<{ index: FacetIndex | null; loaded: boolean }> {
  const start = workerStart(ENTRY, ["better-sqlite3", "pg"]);
  const data: IndexWorkerData = { url, generation };
  return new Promise((resolve, reject) => {
    const worker = new Worker(start.script, {
      eval: start.eval,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    let settled = false;
    worker.once("message", (reply: IndexWorkerReply) => {
      settled = true;
      if ("error" in reply) reject(new Error(`facet index build failed: ${reply.error}`));
      else {
        if (reply.saveError) log().warn({ err: reply.saveError }, "the listing index was built but could not be saved; the next start builds it again");
        if (!reply.parts) resolve({ index: null, loaded: reply.loaded });
        else FacetIndex.fromParts(reply.parts, yieldToEventLoop).then((index) => resolve({ index, loaded: reply.loaded }), reject);
      }
    });
    worker.once("error", (error) => {
      settled = true;
      reject(error);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the facet index thread exited with code ${code} before it sent the index`));
    });
  });
}

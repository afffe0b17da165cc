import { Worker } from "node:worker_threads";
import type { SearchJob, SearchReply } from "#app/catalog-search/index/id-search-worker.server.ts";
import { workerStart } from "#app/utils/worker-start.server.ts";

// The server build rewrites this URL to the worker's emitted chunk (server/worker-entry-plugin.ts).
// Made when the thread starts, not when the module loads: the facet index thread bundles this
// module as code to evaluate, which has no import.meta.url, and never searches.
const entry = () => new URL("./id-search-worker.server.ts", import.meta.url);

// A job holds the matches of one term (4 bytes a row) and nothing else for long.
const WORKER_HEAP_MB = 32;
const WORKER_YOUNG_MB = 2;
// A thread that keeps failing is not started again: searches are then scanned on the event loop.
const MAX_STARTS = 3;

interface Pending {
  resolve(rids: Uint32Array): void;
  reject(error: Error): void;
}

let thread: { worker: Worker; pending: Map<number, Pending> } | null = null;
let starts = 0;
let nextId = 1;

function start(): NonNullable<typeof thread> | null {
  if (thread) return thread;
  if (starts >= MAX_STARTS) return null;
  starts++;
  const script = workerStart(entry());
  const worker = new Worker(script.script, {
    eval: script.eval,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  // An idle search thread must not keep a finished command alive.
  worker.unref();
  const own = { worker, pending: new Map<number, Pending>() };
  const fail = (error: Error) => {
    if (thread === own) thread = null;
    for (const waiting of own.pending.values()) waiting.reject(error);
    own.pending.clear();
  };
  worker.on("message", (reply: SearchReply) => {
    const waiting = own.pending.get(reply.id);
    if (!waiting) return;
    own.pending.delete(reply.id);
    if (own.pending.size === 0) worker.unref();
    if ("rids" in reply) waiting.resolve(reply.rids);
    else waiting.reject(new Error(`id search thread: ${reply.error}`));
  });
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the id search thread exited with code ${code}`)));
  thread = own;
  return own;
}

/**
 * The row ids of every id in `text` containing `needle`, scanned in the search thread, so a
 * search holds neither the event loop nor a core it shares with requests in turns; null when the
 * text is not shared memory or the thread cannot be started, and the caller scans it itself.
 */
export function findInThread(text: Uint8Array, ends: Uint32Array, ridBase: number, filter: Uint32Array, needle: Uint8Array): Promise<Uint32Array> | null {
  if (![text, ends, filter].every((a) => a.buffer instanceof SharedArrayBuffer)) return null;
  const own = start();
  if (!own) return null;
  const id = nextId++;
  // The needle in a buffer of its own: a pooled Buffer's view would send the whole pool.
  const job: SearchJob = { id, text, ends, ridBase, filter, needle: new Uint8Array(needle) };
  return new Promise<Uint32Array>((resolve, reject) => {
    own.pending.set(id, { resolve, reject });
    if (own.pending.size === 1) own.worker.ref();
    own.worker.postMessage(job);
  });
}

import os from "node:os";
import { Worker } from "node:worker_threads";
import type { SearchJob, SearchReply } from "#app/catalog-search/index/id-search-worker.server.ts";
import { log } from "#app/utils/logger.server.ts";
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

/** One search thread per core, up to two: a common term's scan, split between them, takes half as long. */
const THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

type Thread = { worker: Worker; pending: Map<number, Pending> };
const threads: Array<Thread | null> = Array.from({ length: THREADS }, () => null);
/** Starts per thread: one that keeps failing is left out, and the others share its work. */
const starts = threads.map(() => 0);
let nextId = 1;

function start(slot: number): Thread | null {
  const running = threads[slot];
  if (running) return running;
  if (starts[slot]! >= MAX_STARTS) return null;
  starts[slot]!++;
  let worker: Worker;
  try {
    const script = workerStart(entry());
    worker = new Worker(script.script, {
      eval: script.eval,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
  } catch (error) {
    // The other thread, or the event loop, scans instead.
    log().warn({ err: error }, "an id search thread could not be started");
    return null;
  }
  // An idle search thread must not keep a finished command alive.
  worker.unref();
  const own: Thread = { worker, pending: new Map<number, Pending>() };
  const fail = (error: Error) => {
    if (threads[slot] === own) threads[slot] = null;
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
  threads[slot] = own;
  return own;
}

/**
 * Starts the search threads ahead of the first search, which would otherwise wait for them to load
 * (tens of milliseconds on a first request). Idle threads do not keep the process alive.
 */
export function startSearchThreads(): void {
  threads.forEach((_, slot) => start(slot));
}

function ask(thread: Thread, job: SearchJob): Promise<Uint32Array> {
  return new Promise<Uint32Array>((resolve, reject) => {
    thread.pending.set(job.id, { resolve, reject });
    if (thread.pending.size === 1) thread.worker.ref();
    thread.worker.postMessage(job);
  });
}

/**
 * The row ids of every id in `text` containing `needle`, in ascending order, scanned by the search
 * threads, each over its share of the text, so a search holds neither the event loop nor a core
 * it shares with requests in turns; null when the text is not shared memory or a thread cannot be
 * started, and the caller scans it itself.
 */
export function findInThread(text: Uint8Array, ends: Uint32Array, ridBase: number, filter: Uint32Array, needle: Uint8Array): Promise<Uint32Array> | null {
  if (![text, ends, filter].every((a) => a.buffer instanceof SharedArrayBuffer)) return null;
  const running = threads.map((_, slot) => start(slot)).filter((t): t is Thread => t !== null);
  if (running.length === 0) return null;
  // The needle in a buffer of its own: a pooled Buffer's view would send the whole pool.
  const own = new Uint8Array(needle);
  const parts = running.map((thread, part) => ask(thread, { id: nextId++, text, ends, ridBase, filter, needle: own, part, parts: running.length }));
  return Promise.all(parts).then((found) => {
    if (found.length === 1) return found[0]!;
    const all = new Uint32Array(found.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of found) {
      all.set(f, at);
      at += f.length;
    }
    return all;
  });
}

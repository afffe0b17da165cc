/**
 * Node flags for the `modelyard serve` process, as `npm start` passes them (package.json) and as
 * the benchmarks and browser tests start the server. The server's live heap is about 50 MB with
 * 760k models; without a cap V8 lets old space grow to four times that before a full collection,
 * and the garbage alone took the server past its 300 MB budget (docs/decisions/0010-facet-index.md).
 * Only `serve` gets the cap: an import of a large dump needs far more.
 *
 * `--v8-pool-size=0` sizes V8's helper threads (parallel and concurrent garbage collection) to the
 * machine's cores less one, where Node's default is four whatever the cores. On two cores, four
 * helpers of the facet index thread's collections took the cores from the event loop: stalls of
 * 8–20 ms while the index built (docs/decisions/0032-facet-index-thread.md).
 *
 * `--max-semi-space-size=4` gives the young generation 4 MB semi-spaces instead of 16. A request's
 * garbage dies young; the scavenge's pause grows with what survives, and with four requests in
 * flight a 16 MB space held enough of theirs for pauses of 5–17 ms. Smaller spaces are scavenged
 * more often and each pause is short (docs/decisions/0034-serve-young-generation.md).
 */
export const SERVE_NODE_FLAGS = ["--max-old-space-size=256", "--max-semi-space-size=4", "--v8-pool-size=0"] as const;

/**
 * Environment for the `modelyard serve` process, set the same way. glibc gives each thread that
 * allocates (the SQLite readers, libuv's pool, V8's helpers) an arena of its own, up to eight per
 * core, and keeps what each one freed: about 45 MB of the served process's RSS at 760k rows. Two
 * arenas measured no slower (docs/decisions/0029-serve-memory-and-import-priority.md). glibc reads
 * it when the process starts, so it cannot be set from inside; other C libraries ignore it.
 *
 * `MALLOC_MMAP_THRESHOLD_` fixes glibc's threshold for serving an allocation from its own mapping
 * at 128 KB. By default the threshold rises to the size of each large block freed, up to 32 MB, and
 * blocks under it then come from the arenas, which keep the memory once freed: the 4 MB chunks the
 * saved listing index is read in, and the buffers of large queries, left some 150 MB in the RSS of
 * a server at 3.04M models (ADR 0046).
 */
export const SERVE_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" } as const;

/** The `npm start` script: SERVE_ENV and SERVE_NODE_FLAGS in front of `modelyard serve`. */
export const START_SCRIPT = `${Object.entries(SERVE_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(" ")} node ${SERVE_NODE_FLAGS.join(" ")} bin/modelyard.mjs serve`;

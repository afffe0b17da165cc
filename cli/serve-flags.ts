/**
 * Node flags for the `modelyard serve` process, as `npm start` passes them (package.json) and as
 * the benchmarks and browser tests start the server. The server's live heap is about 50 MB with
 * 760k models; without a cap V8 lets old space grow to four times that before a full collection,
 * and the garbage alone took the server past its 300 MB budget (docs/decisions/0010-facet-index.md).
 * Only `serve` gets the cap: an import of a large dump needs far more.
 */
export const SERVE_NODE_FLAGS = ["--max-old-space-size=256"] as const;

import type { Server } from "node:http";

/**
 * Stops `server` gracefully (ADR 0041): it accepts no new connection, idle keep-alive connections
 * are closed as they become idle, and requests in flight, streams included, may finish within
 * `graceMs`. Past it, `endStreams` ends each stream with an SSE error event in its own dialect,
 * and whatever is still open after `cutAfterMs` more is cut. Resolves with how it went.
 */
export async function drainServer(opts: {
  server: Server;
  graceMs: number;
  /** Ends the streams in flight with an error event; returns how many (app/inference/stream.server.ts). */
  endStreams: () => number;
  /** How long ended streams get to write their last event before their sockets are cut. */
  cutAfterMs?: number;
}): Promise<{ drained: boolean; streamsEnded: number }> {
  const { server } = opts;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Node closes the connections idle now; these become idle as their answers end.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const graceOver = new Promise<"grace">((resolve) => (timer = setTimeout(() => resolve("grace"), opts.graceMs)));
  try {
    if ((await Promise.race([closed.then(() => "closed" as const), graceOver])) === "closed") return { drained: true, streamsEnded: 0 };
    const streamsEnded = opts.endStreams();
    const cut = new Promise<void>((resolve) => setTimeout(resolve, opts.cutAfterMs ?? 1_000));
    await Promise.race([closed, cut]);
    server.closeAllConnections();
    await closed;
    return { drained: false, streamsEnded };
  } finally {
    clearTimeout(timer);
    clearInterval(sweep);
  }
}

import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { PerformanceObserver, monitorEventLoopDelay } from "node:perf_hooks";

/**
 * Bench-only: the server's event-loop delay, for `npm run bench:catalog -- --mixed`. Off unless
 * MODELYARD_BENCH_EVENT_LOOP=1, and reachable only by whoever started the process (a signal and
 * its stdout), so it is no part of the HTTP surface.
 *
 * Each report is one stdout line `event-loop-delay <label> {"p50":…,"p99":…,"max":…,"n":…}` in
 * milliseconds, covering the time since the previous report; SIGUSR2 asks for one.
 */
export interface EventLoopProbe {
  report(label: string): void;
}

export function startEventLoopProbe(): EventLoopProbe | null {
  if (!["1", "true"].includes(process.env["MODELYARD_BENCH_EVENT_LOOP"] ?? "")) return null;
  // 1 ms resolution: the goal is a p99 of 10 ms, and a finer timer would itself load the loop.
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const stalls = watchStalls();
  const probe: EventLoopProbe = {
    report(label) {
      const line = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), n: h.count, stalls: stalls.take() };
      console.log(`event-loop-delay ${label} ${JSON.stringify(line)}`);
      h.reset();
    },
  };
  process.on("SIGUSR2", () => probe.report("signal"));
  return probe;
}

/** What the loop was doing when it stalled: garbage collection, and which requests were in flight. */
interface Stalls {
  /** Gaps of over 10 ms between 1 ms ticks. */
  count: number;
  /** Collections that paused the loop for over 5 ms: how many, their total and the longest. */
  gc: { n: number; ms: number; max: number; kinds: Record<string, number> };
  /** Requests in flight during a stall (path and query), most frequent first. */
  during: Array<[string, number]>;
}

function watchStalls(): { take(): Stalls } {
  const inflight = new Map<ServerResponse, string>();
  diagnosticsChannel.subscribe("http.server.request.start", (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    inflight.set(response, request.url ?? "");
    response.once("close", () => inflight.delete(response));
  });
  let count = 0;
  const during = new Map<string, number>();
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 11) {
      count++;
      for (const url of new Set(inflight.values())) during.set(url, (during.get(url) ?? 0) + 1);
    }
    last = now;
  }, 1).unref();
  const gc = { n: 0, ms: 0, max: 0, kinds: {} as Record<string, number> };
  const KINDS: Record<number, string> = { 1: "minor", 2: "major", 4: "incremental", 8: "weak callbacks" };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration <= 5) continue;
      gc.n++;
      gc.ms += entry.duration;
      gc.max = Math.max(gc.max, entry.duration);
      const kind = KINDS[(entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0] ?? "other";
      gc.kinds[kind] = (gc.kinds[kind] ?? 0) + 1;
    }
  }).observe({ entryTypes: ["gc"] });
  return {
    take() {
      const out: Stalls = { count, gc: { ...gc, ms: Math.round(gc.ms), max: Math.round(gc.max) }, during: [...during].sort((a, b) => b[1] - a[1]).slice(0, 8) };
      count = 0;
      during.clear();
      Object.assign(gc, { n: 0, ms: 0, max: 0, kinds: {} });
      return out;
    },
  };
}

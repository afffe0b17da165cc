import { monitorEventLoopDelay } from "node:perf_hooks";

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
  if (process.env["MODELYARD_BENCH_EVENT_LOOP"] !== "1") return null;
  // 1 ms resolution: the goal is a p99 of 10 ms, and a finer timer would itself load the loop.
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const probe: EventLoopProbe = {
    report(label) {
      const line = { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), n: h.count };
      console.log(`event-loop-delay ${label} ${JSON.stringify(line)}`);
      h.reset();
    },
  };
  process.on("SIGUSR2", () => probe.report("signal"));
  return probe;
}

/**
 * Sizing for background work done in slices on the event loop that serves requests
 * (docs/decisions/0017-background-work-off-the-request-path.md).
 *
 * A slice of N rows read through better-sqlite3 is one synchronous call, so the only way to bound
 * how long it holds the event loop is to choose N: each slice is timed, and the next one is sized
 * from the rows per millisecond just measured, so that a slice takes about `budgetMs` whatever the
 * rows cost (wide JSON tags, a filter that rejects most rows, a cold page cache).
 */

/**
 * Slice budget. A request that arrives during a slice waits for the rest of it, so the budget is
 * added to request latency as well as to the event-loop delay: 4 ms slices measured worse under
 * light traffic than the fixed 1,000-row slices before issue 14 (about 0.4 ms each for a cheap recount).
 */
export const SLICE_BUDGET_MS = 2;

export interface SliceSizer {
  /** Rows (or row ids) for the next slice. */
  readonly size: number;
  /** Records how long the slice just run took and how many ids it covered. */
  record(ms: number, covered: number): void;
}

export function createSliceSizer(opts: { initial: number; min: number; max: number; budgetMs?: number }): SliceSizer {
  const budget = opts.budgetMs ?? SLICE_BUDGET_MS;
  let size = opts.initial;
  return {
    get size() {
      return size;
    },
    record(ms, covered) {
      // Grow at most 2x a step (a fast slice may be luck), shrink as far as the measure says.
      const perMs = covered / Math.max(ms, 0.05);
      const next = Math.floor(perMs * budget);
      size = Math.max(opts.min, Math.min(opts.max, Math.min(next, size * 2)));
    },
  };
}

const waiting: Array<() => void> = [];
let draining = false;

function resumeOne(): void {
  const next = waiting.shift();
  // Queued from inside the check phase, the next immediate runs in the next turn of the loop.
  if (waiting.length > 0) setImmediate(resumeOne);
  else draining = false;
  next?.();
}

/**
 * Lets pending I/O (requests) and timers run before the next slice. The slices that wait are
 * resumed one per turn of the event loop, in the order they yielded. Node runs every immediate
 * queued before a turn's check phase in that phase, so with one setImmediate each, four requests'
 * slices of a few ms ran back to back and a timer or a new request waited for all of them.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!draining) {
      draining = true;
      setImmediate(resumeOne);
    }
  });
}

/**
 * Sizing for background work done in slices on the event loop that serves requests
 * (docs/decisions/0017-background-work-off-the-request-path.md).
 *
 * A slice of N rows read through better-sqlite3 is one synchronous call, so the only way to bound
 * how long it holds the event loop is to choose N: each slice is timed, and the next one is sized
 * from the rows per millisecond just measured, so that a slice takes about `budgetMs` whatever the
 * rows cost (wide JSON tags, a filter that rejects most rows, a cold page cache).
 */

import { AsyncLocalStorage } from "node:async_hooks";

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

/**
 * A slice that waits is resumed by its due time, earliest first (ADR 0017, "Then"). A
 * request's slices all carry the time it arrived plus its class's allowance: an API call's is
 * short, a page's longer, so a cheap call can pass a page render that arrived a little earlier,
 * and an old page passes every newer request. Background work's slices are due a page's allowance
 * after they yield: it keeps a page's share and is never starved, and a request never waits behind
 * more than one of its slices. Arrival order alone (FIFO) made API calls wait behind page renders;
 * a turn each in yield order (round robin) made four new views finish together, each at four
 * times its own cost.
 */
export const ALLOWANCE_MS = { api: 0, page: 50, background: 50 } as const;

const due = new AsyncLocalStorage<number>();

/** Runs fn as a request of that class: every slice it yields is due `ALLOWANCE_MS[kind]` after now. */
export function runAsRequest<T>(kind: "api" | "page", fn: () => T): T {
  return due.run(performance.now() + ALLOWANCE_MS[kind], fn);
}

/** Runs fn as background work, even when a request started it: its slices are due as they yield. */
export function runInBackground<T>(fn: () => T): T {
  return due.exit(fn);
}

interface Waiter {
  due: number;
  seq: number;
  resume: () => void;
}

// A binary min-heap by (due, seq): seq keeps equal due times in the order they yielded.
const heap: Waiter[] = [];
let seq = 0;
let draining = false;

const before = (a: Waiter, b: Waiter) => a.due < b.due || (a.due === b.due && a.seq < b.seq);

function push(w: Waiter): void {
  heap.push(w);
  for (let i = heap.length - 1; i > 0; ) {
    const up = (i - 1) >> 1;
    if (!before(heap[i]!, heap[up]!)) break;
    [heap[i], heap[up]] = [heap[up]!, heap[i]!];
    i = up;
  }
}

function pop(): Waiter | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length === 0 || !last) return top;
  heap[0] = last;
  for (let i = 0; ; ) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
    if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
    if (m === i) break;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
  return top;
}

function resumeOne(): void {
  const next = pop();
  // Queued from inside the check phase, the next immediate runs in the next turn of the loop.
  if (heap.length > 0) setImmediate(resumeOne);
  else draining = false;
  next?.resume();
}

/**
 * Lets pending I/O (requests) and timers run before the next slice. The slices that wait are
 * resumed one per turn of the event loop, earliest due first. Node runs every immediate queued
 * before a turn's check phase in that phase, so with one setImmediate each, four requests' slices
 * of a few ms ran back to back and a timer or a new request waited for all of them.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    push({ due: due.getStore() ?? performance.now() + ALLOWANCE_MS.background, seq: seq++, resume: resolve });
    if (!draining) {
      draining = true;
      setImmediate(resumeOne);
    }
  });
}

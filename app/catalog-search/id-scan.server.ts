/**
 * The scan behind the in-memory id search (id-search.server.ts), on its own so the search thread
 * (id-search-worker.server.ts) loads nothing else: the ids of a generation as one byte text, each
 * followed by a separator, with `ends[i]` the offset just past row i's id and `rids[i]` its row id.
 */
export class IdScan {
  private found = new Uint32Array(1024);
  private count = 0;
  private row = 0;

  constructor(
    private readonly text: Buffer,
    private readonly ends: Uint32Array,
    private readonly rids: Uint32Array,
    private readonly needle: Buffer,
  ) {}

  /**
   * Scans the matches that start in [start, end) and returns where the next window starts: past
   * the last matched row, as a match never spans two rows (the needle holds no separator).
   */
  window(start: number, end: number): number {
    const { text, ends, rids, needle } = this;
    const view = text.subarray(start, Math.min(text.length, end + needle.length - 1));
    let next = end;
    for (let p = 0; ; ) {
      const i = view.indexOf(needle, p);
      if (i < 0 || start + i >= end) break;
      // Rows ascend with offsets: find the row holding the match, then go on after that row.
      this.row = rowAt(ends, start + i, this.row);
      if (this.count === this.found.length) {
        const grown = new Uint32Array(this.count * 2);
        grown.set(this.found);
        this.found = grown;
      }
      this.found[this.count++] = rids[this.row]!;
      next = Math.max(next, ends[this.row]!);
      p = ends[this.row]! - start;
    }
    return next;
  }

  /** The row ids found so far, in a buffer of their own. */
  result(): Uint32Array<ArrayBuffer> {
    return this.found.slice(0, this.count);
  }
}

/** The first row whose end lies beyond `offset`, searching from `from` (rows before it end earlier). */
function rowAt(ends: Uint32Array, offset: number, from: number): number {
  let lo = from;
  let hi = ends.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]! > offset) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

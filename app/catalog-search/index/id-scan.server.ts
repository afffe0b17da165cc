/**
 * The scan behind the in-memory id search (id-search.server.ts), on its own so the search thread
 * (id-search-worker.server.ts) loads nothing else: the ids of a generation as one byte text, each
 * followed by a separator, with `ends[i]` the offset just past row i's id, whose row id is
 * ridBase + i (a row id with no row has an empty id).
 *
 * Beside the text sits a trigram filter (ADR 0036): for each block of FILTER_BLOCK_ROWS rows, one
 * bit per hashed trigram of its ids. A block lacking a bit of the term's trigrams cannot hold a
 * match, so a term is only scanned for in the blocks that may: a rare term reads a few hundred
 * kilobytes instead of the whole text.
 */

/** Rows per block of the filter. */
export const FILTER_BLOCK_ROWS = 64;
/** Bits per block (4,096, one per hash bucket); 512 bytes, 6 MB at 760k rows. */
const FILTER_BITS_LOG2 = 12;
export const FILTER_WORDS = (1 << FILTER_BITS_LOG2) / 32;

/** The filter bucket of the trigram a b c (bytes of the folded text). */
function bucket(a: number, b: number, c: number): number {
  return Math.imul((a << 16) | (b << 8) | c, 0x9e3779b1) >>> (32 - FILTER_BITS_LOG2);
}

/** Sets, in `filter`, the bits of the trigrams of text[from, to) for the block `block`. */
export function addTrigrams(filter: Uint32Array, block: number, text: Uint8Array, from: number, to: number): void {
  const base = block * FILTER_WORDS;
  for (let i = from; i + 2 < to; i++) {
    const k = bucket(text[i]!, text[i + 1]!, text[i + 2]!);
    const w = base + (k >>> 5);
    filter[w] = filter[w]! | (1 << (k & 31));
  }
}

/**
 * Byte ranges [from, to) of the text that may hold `needle`: the blocks whose filter has every bit
 * of its trigrams, adjacent ones joined, among the part-th of `parts` equal runs of blocks (a
 * search thread's share; the parts together cover every block once, in order). Each range starts
 * and ends at a row boundary, and a match never spans two rows.
 */
export function candidateRanges(ends: Uint32Array, filter: Uint32Array, needle: Uint8Array, part = 0, parts = 1): Array<[number, number]> {
  const words: number[] = [];
  const masks: number[] = [];
  for (let i = 0; i + 2 < needle.length; i++) {
    const k = bucket(needle[i]!, needle[i + 1]!, needle[i + 2]!);
    words.push(k >>> 5);
    masks.push(1 << (k & 31));
  }
  const rows = ends.length;
  const blocks = Math.ceil(rows / FILTER_BLOCK_ROWS);
  const ranges: Array<[number, number]> = [];
  const last = Math.floor((blocks * (part + 1)) / parts);
  for (let block = Math.floor((blocks * part) / parts); block < last; block++) {
    const base = block * FILTER_WORDS;
    let may = true;
    for (let j = 0; j < words.length && may; j++) may = (filter[base + words[j]!]! & masks[j]!) !== 0;
    if (!may) continue;
    const first = block * FILTER_BLOCK_ROWS;
    const from = first === 0 ? 0 : ends[first - 1]!;
    const to = ends[Math.min(rows, first + FILTER_BLOCK_ROWS) - 1]!;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === from) last[1] = to;
    else ranges.push([from, to]);
  }
  return ranges;
}

export class IdScan {
  private found = new Uint32Array(1024);
  private count = 0;
  private row = 0;

  constructor(
    private readonly text: Buffer,
    private readonly ends: Uint32Array,
    private readonly ridBase: number,
    private readonly needle: Buffer,
  ) {}

  /**
   * Scans the matches that start in [start, end) and returns where the next window starts: past
   * the last matched row, as a match never spans two rows (the needle holds no separator).
   * Windows must ascend.
   */
  window(start: number, end: number): number {
    const { text, ends, ridBase, needle } = this;
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
      this.found[this.count++] = ridBase + this.row;
      next = Math.max(next, ends[this.row]!);
      p = ends[this.row]! - start;
    }
    return next;
  }

  /** Every match in the ranges candidateRanges gave, in one go. */
  ranges(ranges: ReadonlyArray<readonly [number, number]>): void {
    for (const [from, to] of ranges) this.window(from, to);
  }

  /** The row ids found so far, in a buffer of their own. */
  result(): Uint32Array<ArrayBuffer> {
    return this.found.slice(0, this.count);
  }
}

/**
 * The first row whose end lies beyond `offset`, searching from `from` (rows before it end earlier).
 * The next match of a common term is usually a few rows on, so the search gallops from `from`
 * (1, 2, 4… rows) before it halves: a bisection of all the rows after `from` took a fifth of a
 * common term's scan at 3M rows.
 */
function rowAt(ends: Uint32Array, offset: number, from: number): number {
  const last = ends.length - 1;
  if (from >= last || ends[from]! > offset) return from;
  // Here ends[lo] <= offset, and ends[hi] > offset unless hi is the last row: the row is in (lo, hi].
  let lo = from;
  let hi = Math.min(last, lo + 1);
  for (let step = 2; hi < last && ends[hi]! <= offset; step *= 2) {
    lo = hi;
    hi = Math.min(last, lo + step);
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]! > offset) hi = mid;
    else lo = mid;
  }
  return hi;
}

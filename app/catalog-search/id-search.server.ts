/**
 * Substring search over model ids in memory (docs/decisions/0027-listing-answered-from-memory.md).
 *
 * The ids of one catalogue generation, ASCII-lower-cased, one after another in a single buffer
 * (off the V8 heap, so the server's heap cap does not grow with the catalogue). A search is a
 * native `indexOf` over it, in slices: a term's matches come back in a few milliseconds of
 * scanning, where a trigram index (FTS5, pg_trgm) reads the posting list of each of the term's
 * trigrams, 10–120 ms even for a rare term.
 *
 * Only ASCII terms are answered: SQLite's LIKE folds ASCII case alone and PostgreSQL's lower()
 * folds all of Unicode, and for an ASCII term both agree with the ASCII folding done here (a
 * non-ASCII letter can match no byte of an ASCII term either way). Other terms go to the database.
 */

/** Bytes of the buffer scanned per slice: under a millisecond of `indexOf` with no match in it. */
const SCAN_SLICE = 2 * 1024 * 1024;

const SEPARATOR = 0x0a;

export class IdTextBuilder {
  private bytes = new Uint8Array(1 << 20);
  private length = 0;
  private ends = new Uint32Array(4096);
  private rids = new Uint32Array(4096);
  private rows = 0;

  add(rid: number, id: string): void {
    const need = this.length + id.length * 3 + 1;
    if (need > this.bytes.length) {
      const next = new Uint8Array(Math.max(need, this.bytes.length * 2));
      next.set(this.bytes.subarray(0, this.length));
      this.bytes = next;
    }
    if (this.rows === this.ends.length) {
      const ends = new Uint32Array(this.rows * 2);
      ends.set(this.ends);
      this.ends = ends;
      const rids = new Uint32Array(this.rows * 2);
      rids.set(this.rids);
      this.rids = rids;
    }
    let at = this.length;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      if (c < 0x80) {
        // ASCII upper case to lower case; a newline cannot occur in an id, but is kept out anyway.
        this.bytes[at++] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c === SEPARATOR ? 0x20 : c;
      } else {
        // Any non-ASCII character becomes one byte no ASCII term contains.
        this.bytes[at++] = 0xff;
        // A surrogate pair is one character.
        if (c >= 0xd800 && c <= 0xdbff) i++;
      }
    }
    this.bytes[at++] = SEPARATOR;
    this.length = at;
    this.ends[this.rows] = at;
    this.rids[this.rows] = rid;
    this.rows++;
  }

  finish(): IdText {
    // Copies at their exact size: the growth slack (up to half of each) is freed with the builder.
    return new IdText(Buffer.from(this.bytes.subarray(0, this.length)), this.ends.slice(0, this.rows), this.rids.slice(0, this.rows));
  }
}

/**
 * Whether `term` is searched here: printable ASCII of three characters or more. Shorter terms
 * match most of the catalogue ("a": 683k of 760k ids), where the database's walk of the sort
 * index with LIKE finds a page sooner than collecting every match does.
 */
export function isSearchableTerm(term: string): boolean {
  return term.length >= 3 && /^[\x20-\x7e]+$/.test(term);
}

/** An IdText as plain data for postMessage (see FacetIndex.toParts). */
export interface IdTextParts {
  text: Uint8Array;
  ends: Uint32Array;
  rids: Uint32Array;
}

export class IdText {
  constructor(
    private readonly text: Buffer,
    /** Row i's id ends just before ends[i] (its separator). */
    private readonly ends: Uint32Array,
    private readonly rids: Uint32Array,
  ) {}

  get bytes(): number {
    return this.text.byteLength + this.ends.byteLength + this.rids.byteLength;
  }

  /** The same ids as plain arrays (the text possibly a view into a larger buffer). */
  toParts(): IdTextParts {
    return { text: new Uint8Array(this.text.buffer, this.text.byteOffset, this.text.byteLength), ends: this.ends, rids: this.rids };
  }

  static fromParts(parts: IdTextParts): IdText {
    return new IdText(Buffer.from(parts.text.buffer, parts.text.byteOffset, parts.text.byteLength), parts.ends, parts.rids);
  }

  /**
   * Row ids of every id containing `term` (ASCII case folded), in no particular order; null when
   * the term is not searchable here. `pause` is awaited between slices of the scan.
   */
  async find(term: string, pause: () => Promise<void>): Promise<Uint32Array | null> {
    if (!isSearchableTerm(term)) return null;
    const needle = Buffer.from(term.toLowerCase(), "latin1");
    const { text, ends, rids } = this;
    let found = new Uint32Array(1024);
    let count = 0;
    let row = 0;
    // Windows of the buffer, each one bounded indexOf loop; a match never spans two rows (the
    // needle holds no separator), and one that starts in a window is that window's.
    for (let start = 0; start < text.length; ) {
      const end = Math.min(text.length, start + SCAN_SLICE);
      const window = text.subarray(start, Math.min(text.length, end + needle.length - 1));
      let next = end;
      for (let p = 0; ; ) {
        const i = window.indexOf(needle, p);
        if (i < 0 || start + i >= end) break;
        // Rows ascend with offsets: find the row holding the match, then go on after that row.
        row = rowAt(ends, start + i, row);
        if (count === found.length) {
          const grown = new Uint32Array(count * 2);
          grown.set(found);
          found = grown;
        }
        found[count++] = rids[row]!;
        next = Math.max(next, ends[row]!);
        p = ends[row]! - start;
      }
      start = next;
      if (start < text.length) await pause();
    }
    return found.slice(0, count);
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

import { FILTER_BLOCK_ROWS, FILTER_WORDS, IdScan, addTrigrams, candidateRanges } from "#app/catalog-search/index/id-scan.server.ts";
import { findInThread } from "#app/catalog-search/index/id-search-thread.server.ts";

/**
 * Substring search over model ids in memory (docs/decisions/0027-listing-answered-from-memory.md).
 *
 * The ids of one catalogue generation, ASCII-lower-cased, one after another in a single buffer
 * (off the V8 heap, so the server's heap cap does not grow with the catalogue). A search is a
 * native `indexOf` over it: a term's matches come back in a few milliseconds of scanning, where a
 * trigram index (FTS5, pg_trgm) reads the posting list of each of the term's trigrams, 10–120 ms
 * even for a rare term. A per-block trigram filter (id-scan.server.ts, ADR 0036) narrows the
 * scan to the blocks of rows that may hold the term. The buffer is shared memory, scanned by the
 * search thread; when that thread cannot run, it is scanned here in slices
 * (docs/decisions/0033-id-search-thread.md).
 *
 * Terms are folded as ASCII: SQLite's LIKE folds ASCII case alone and PostgreSQL's lower() folds
 * all of Unicode, and for an ASCII term both agree with the folding done here. Model ids are
 * printable ASCII (`modelIdSchema`, checked on import), so a term with any other character matches
 * no id, here as in SQL.
 */

/** Bytes of the buffer scanned per slice: under a millisecond of `indexOf` with no match in it. */
const SCAN_SLICE = 2 * 1024 * 1024;

const SEPARATOR = 0x0a;

/**
 * Shared memory that grows in place up to `max` bytes: the search threads read it as it is, and a
 * build never holds two copies (growing by copying, then copying to shared memory at the end, put
 * the text three times over in a build's peak: 700 MB at 3.04M rows). Only the bytes written are
 * resident; the rest is reserved address space.
 */
function growable(bytes: number, max: number): SharedArrayBuffer {
  return new SharedArrayBuffer(bytes, { maxByteLength: max });
}

/**
 * Grows `buffer` to hold `need` bytes, and says whether it grew. Views are made again at each
 * growth with a fixed length: V8 (Node 20) reads and writes a view that tracks a growable buffer's
 * length some 35 times slower than a fixed one, which made the text's build several times slower.
 */
function grow(buffer: SharedArrayBuffer, need: number): boolean {
  if (need <= buffer.byteLength) return false;
  buffer.grow(Math.min(buffer.maxByteLength, Math.max(need, buffer.byteLength * 2)));
  return true;
}

export class IdTextBuilder {
  // Offsets into the text are 32-bit, so the text stays under 4 GB.
  private readonly textBuffer = growable(1 << 20, 2 ** 32 - 1);
  private readonly endsBuffer = growable(4096 * 4, 2 ** 32);
  private readonly filterBuffer = growable(64 * FILTER_WORDS * 4, 2 ** 32);
  private bytes = new Uint8Array(this.textBuffer, 0, this.textBuffer.byteLength);
  private ends = new Uint32Array(this.endsBuffer, 0, this.endsBuffer.byteLength / 4);
  private filter = new Uint32Array(this.filterBuffer, 0, this.filterBuffer.byteLength / 4);
  private length = 0;
  /** The first row's id: row i of the text is row id ridBase + i (ADR 0046). */
  private ridBase = -1;
  private rows = 0;

  /** Adds row `rid`'s id; rows come in ascending row-id order, and the ids skipped are left empty. */
  add(rid: number, id: string): void {
    if (this.ridBase < 0) this.ridBase = rid;
    const row = rid - this.ridBase;
    if (row < this.rows) throw new Error(`id text rows must ascend: row id ${rid} after ${this.ridBase + this.rows - 1}`);
    while (this.rows < row) this.append("");
    this.append(id);
  }

  private append(id: string): void {
    if (grow(this.textBuffer, this.length + id.length * 3 + 1)) this.bytes = new Uint8Array(this.textBuffer, 0, this.textBuffer.byteLength);
    if (grow(this.endsBuffer, (this.rows + 1) * 4)) this.ends = new Uint32Array(this.endsBuffer, 0, this.endsBuffer.byteLength / 4);
    const block = Math.floor(this.rows / FILTER_BLOCK_ROWS);
    if (grow(this.filterBuffer, (block + 1) * FILTER_WORDS * 4)) this.filter = new Uint32Array(this.filterBuffer, 0, this.filterBuffer.byteLength / 4);
    const start = this.length;
    let at = start;
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
    addTrigrams(this.filter, block, this.bytes, start, at);
    this.bytes[at++] = SEPARATOR;
    this.length = at;
    this.ends[this.rows] = at;
    this.rows++;
  }

  /** The ids as built, without a copy: views of their exact length over the shared buffers. */
  finish(): IdText {
    const filter = new Uint32Array(this.filterBuffer, 0, Math.ceil(this.rows / FILTER_BLOCK_ROWS) * FILTER_WORDS);
    return new IdText(Buffer.from(this.textBuffer, 0, this.length), new Uint32Array(this.endsBuffer, 0, this.rows), Math.max(0, this.ridBase), filter);
  }
}

/**
 * Whether the trigram filter can narrow a scan for `term`: printable ASCII of three characters or
 * more. A shorter term has no trigram, and every block is scanned (candidateRanges).
 */
export function isSearchableTerm(term: string): boolean {
  return term.length >= 3 && isIdText(term);
}

/** Whether an id could hold `term`: ids are printable ASCII. */
const isIdText = (term: string) => /^[\x20-\x7e]+$/.test(term);

/** An IdText as plain data for postMessage (see FacetIndex.toParts). */
export interface IdTextParts {
  text: Uint8Array;
  ends: Uint32Array;
  /** Row i's row id is ridBase + i. */
  ridBase: number;
  /** The trigram filter: FILTER_WORDS words per block of FILTER_BLOCK_ROWS rows (id-scan.server.ts). */
  filter: Uint32Array;
}

export class IdText {
  constructor(
    private readonly text: Buffer,
    /** Row i's id ends just before ends[i] (its separator). */
    private readonly ends: Uint32Array,
    private readonly ridBase: number,
    private readonly filter: Uint32Array,
  ) {}

  get bytes(): number {
    return this.text.byteLength + this.ends.byteLength + this.filter.byteLength;
  }

  /** The same ids as plain arrays (the text possibly a view into a larger buffer). */
  toParts(): IdTextParts {
    return { text: new Uint8Array(this.text.buffer, this.text.byteOffset, this.text.byteLength), ends: this.ends, ridBase: this.ridBase, filter: this.filter };
  }

  static fromParts(parts: IdTextParts): IdText {
    return new IdText(Buffer.from(parts.text.buffer, parts.text.byteOffset, parts.text.byteLength), parts.ends, parts.ridBase, parts.filter);
  }

  /**
   * Row ids of every id containing `term` (ASCII case folded), in no particular order: none when
   * the term has a character no id has. The search thread scans it when it can; otherwise it is
   * scanned here, with `pause` awaited between slices. A term under three characters has no
   * trigram to narrow the scan with, so every block is scanned.
   */
  async find(term: string, pause: () => Promise<void>): Promise<Uint32Array> {
    if (term === "" || !isIdText(term)) return new Uint32Array(0);
    const needle = Buffer.from(term.toLowerCase(), "latin1");
    const { text, ends, ridBase, filter } = this;
    const inThread = findInThread(text, ends, ridBase, filter, needle);
    if (inThread) {
      try {
        return await inThread;
      } catch {
        // The thread failed (and is started again for the next search): this one is scanned here.
      }
    }
    return this.findHere(needle, pause);
  }

  /** The scan on this thread, in windows of the candidate ranges with `pause` awaited between them. */
  async findHere(needle: Buffer, pause: () => Promise<void>): Promise<Uint32Array> {
    const scan = new IdScan(this.text, this.ends, this.ridBase, needle);
    let scanned = 0;
    for (const [from, to] of candidateRanges(this.ends, this.filter, needle)) {
      for (let start = from; start < to; ) {
        if (scanned >= SCAN_SLICE) {
          await pause();
          scanned = 0;
        }
        const end = Math.min(to, start + SCAN_SLICE - scanned);
        const next = scan.window(start, end);
        scanned += next - start;
        start = next;
      }
    }
    return scan.result();
  }
}

import { PARAM_BUCKETS, type CatalogFilters } from "#app/catalog-search/listing-params.ts";
import { IdText, type IdTextParts } from "#app/catalog-search/index/id-search.server.ts";
import { isLanguageCode } from "#app/catalog/languages.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import type { CatalogueCoverage } from "#app/catalog-search/answer-types.ts";

/**
 * The catalogue's facet columns, laid out for counting (docs/decisions/0010-facet-index.md).
 *
 * Rows that agree on every facet (task, library, licence, size bucket, bare tags, providers) share
 * one "profile"; a catalogue of 760k models has far fewer profiles than rows. Each row keeps only
 * its profile number, so counting the facets of any set of row ids is a tally of profiles, and the
 * exact count and facets of a filter set without a search or an author are a pass over the
 * profiles alone: no row is read from the database on the request path.
 */

/** Counts per facet value for one set of rows, before sorting and trimming for display. */
export interface FacetTally {
  total: number;
  tasks: Map<string, number>;
  libraries: Map<string, number>;
  licenses: Map<string, number>;
  params: Map<string, number>;
  tags: Map<string, number>;
  providers: Map<string, number>;
}

export function emptyTally(): FacetTally {
  return { total: 0, tasks: new Map(), libraries: new Map(), licenses: new Map(), params: new Map(), tags: new Map(), providers: new Map() };
}

// Dictionary ids are 32-bit: licences and libraries come from free-form card data.
export const NONE = 0xffffffff;
export const NO_BUCKET = 0xff;

/** Strings to small numbers, in order of first sight. */
export class Dictionary {
  readonly values: string[] = [];
  private readonly ids = new Map<string, number>();
  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }
  find(value: string): number | undefined {
    return this.ids.get(value);
  }
  /**
   * A dictionary holding `values` under their positions, as another thread's dictionary did, with
   * `pause` awaited between slices: the 760k-row catalogue's 21k tags took 5–18 ms in one go.
   */
  static async of(values: string[], pause: () => Promise<void>): Promise<Dictionary> {
    const dict = new Dictionary();
    for (let i = 0; i < values.length; i++) {
      dict.id(values[i]!);
      if ((i + 1) % DICTIONARY_SLICE === 0) await pause();
    }
    return dict;
  }
}

// Entries of a sort order per slice of a page walk: about a millisecond.
const WALK_SLICE = 150_000;
// Row ids per count of a sort order's tail (FacetIndex.tailBefore): 742 counts at 3.04M rows.
const TAIL_STEP = 4_096;
// Values per slice of Dictionary.of: well under a millisecond.
const DICTIONARY_SLICE = 4_000;
// Profiles per slice of tallyFiltersInSlices: about 2–3 ms for the broadest filter.
const PROFILE_SLICE = 8_000;


interface IndexData {
  generation: number;
  ridBase: number;
  /** Row id − ridBase → profile number, −1 for ids with no row. */
  byRid: Int32Array;
  /** Rows per profile. */
  counts: Uint32Array;
  pTask: Uint32Array;
  pLibrary: Uint32Array;
  pLicense: Uint32Array;
  pBucket: Uint8Array;
  /** Profile p's tags are tagIds[pTagEnd[p-1] .. pTagEnd[p]), ascending. */
  pTagEnd: Uint32Array;
  tagIds: Uint32Array;
  pProviderEnd: Uint32Array;
  providerIds: Uint32Array;
  tasks: Dictionary;
  libraries: Dictionary;
  licenses: Dictionary;
  tags: Dictionary;
  providers: Dictionary;
}

type DictionaryName = "tasks" | "libraries" | "licenses" | "tags" | "providers";

/**
 * An index as plain data for postMessage (a build in a worker thread, facet-index-thread.server.ts):
 * its typed arrays, whose buffers are transferred rather than copied, and its dictionaries' values.
 */
export interface FacetIndexParts {
  data: Omit<IndexData, DictionaryName> & Record<DictionaryName, string[]>;
  listing: { ids: IdTextParts; orders: Record<SortKey, SortOrder>; coverage: Record<SortKey, CatalogueCoverage> } | null;
}

/**
 * A typed array over a buffer of its own, as a transfer needs (a view into a larger one is
 * copied). Shared memory is shared, not transferred: its views stay as they are.
 */
function own<T extends Uint8Array | Uint32Array | Int32Array>(a: T): T {
  return a.buffer instanceof SharedArrayBuffer || (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) ? a : (a.slice() as T);
}

/**
 * A sort's descending order of row ids (ascending is its reverse), without its tail: the longest
 * run at the end that is in row-id order, which is every row the order does not list before it.
 * Most sorts end in one long tie broken by row id (no likes, no downloads, no trending score, no
 * update date: 91%, 50%, 47% and 100% of the 3.04M-row catalogue), so the tail is most of the
 * order, and it is read from the index's rows rather than kept: 61 MB of orders became 26 MB.
 */
export interface SortOrder {
  /** The order up to its tail. */
  head: Uint32Array;
  /** One bit per row id (from ridBase) listed in `head`. */
  inHead: Uint8Array;
}

/**
 * What the index needs beyond facets to answer listing pages itself (ADR 0027): the ids for
 * substring search, and each sort's order.
 */
export interface ListingData {
  ids: IdText;
  orders: Record<SortKey, SortOrder>;
  /** What each sort can rank in the whole catalogue (views/sort-coverage.server.ts). */
  coverage: Record<SortKey, CatalogueCoverage>;
}

/** Rows matching a filter set, as the index can tell them: a profile mask, and the candidate rows a search or author left. */
export interface RowMatch {
  /** 1 for each profile the facet filters accept. */
  profiles: Uint8Array;
  /**
   * When the filters have any the profiles do not hold (a search, an author…): the rows matching
   * every filter, profiles included, in row-id order or the search's. Null for every row the
   * profiles accept.
   */
  candidates: Uint32Array | null;
}

export class FacetIndex {
  readonly generation: number;
  constructor(
    private readonly d: IndexData,
    readonly listing: ListingData | null = null,
  ) {
    this.generation = d.generation;
  }

  /** The index as plain data, and the buffers to transfer with it (they are unusable here after). */
  toParts(): { parts: FacetIndexParts; transfer: ArrayBuffer[] } {
    const d = this.d;
    const data: FacetIndexParts["data"] = {
      generation: d.generation,
      ridBase: d.ridBase,
      byRid: own(d.byRid),
      counts: own(d.counts),
      pTask: own(d.pTask),
      pLibrary: own(d.pLibrary),
      pLicense: own(d.pLicense),
      pBucket: own(d.pBucket),
      pTagEnd: own(d.pTagEnd),
      tagIds: own(d.tagIds),
      pProviderEnd: own(d.pProviderEnd),
      providerIds: own(d.providerIds),
      tasks: d.tasks.values,
      libraries: d.libraries.values,
      licenses: d.licenses.values,
      tags: d.tags.values,
      providers: d.providers.values,
    };
    let listing: FacetIndexParts["listing"] = null;
    if (this.listing) {
      const orders = { ...this.listing.orders };
      for (const key of Object.keys(orders) as SortKey[]) orders[key] = { head: own(orders[key].head), inHead: own(orders[key].inHead) };
      const ids = this.listing.ids.toParts();
      listing = { ids: { text: own(ids.text), ends: own(ids.ends), ridBase: ids.ridBase, filter: own(ids.filter) }, orders, coverage: this.listing.coverage };
    }
    const arrays: ArrayBufferView[] = [data.byRid, data.counts, data.pTask, data.pLibrary, data.pLicense, data.pBucket, data.pTagEnd, data.tagIds, data.pProviderEnd, data.providerIds];
    if (listing) arrays.push(listing.ids.text, listing.ids.ends, listing.ids.filter, ...Object.values(listing.orders).flatMap((o) => [o.head, o.inHead]));
    // An empty catalogue's arrays can share one zero-length buffer; each buffer is listed once.
    const transfer = [...new Set(arrays.map((a) => a.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
    return { parts: { data, listing }, transfer };
  }

  /** The index another thread sent as toParts, with `pause` awaited between slices of its dictionaries. */
  static async fromParts(parts: FacetIndexParts, pause: () => Promise<void>): Promise<FacetIndex> {
    const { data } = parts;
    const index = new FacetIndex({
      ...data,
      tasks: await Dictionary.of(data.tasks, pause),
      libraries: await Dictionary.of(data.libraries, pause),
      licenses: await Dictionary.of(data.licenses, pause),
      tags: await Dictionary.of(data.tags, pause),
      providers: await Dictionary.of(data.providers, pause),
    });
    return parts.listing ? index.withListing({ ...parts.listing, ids: IdText.fromParts(parts.listing.ids) }) : index;
  }

  /** The same index, able to answer listing pages too. */
  withListing(listing: ListingData): FacetIndex {
    return new FacetIndex(this.d, listing);
  }

  private rowCount = -1;
  get rows(): number {
    if (this.rowCount < 0) this.rowCount = this.d.counts.reduce((n, c) => n + c, 0);
    return this.rowCount;
  }

  /** A sort's full descending order (every row id, as readSortOrders reads it) as this index keeps it. */
  sortOrder(full: Uint32Array): SortOrder {
    let cut = full.length;
    while (cut > 0 && (cut === full.length || full[cut - 1]! < full[cut]!)) cut--;
    const { ridBase, byRid } = this.d;
    const inHead = new Uint8Array(Math.ceil(byRid.length / 8));
    // Only rows this index holds: the tail is every other row it holds, so the two add up to its rows.
    const head = full.subarray(0, cut).filter((rid) => {
      const i = rid - ridBase;
      if (i < 0 || i >= byRid.length || byRid[i]! < 0) return false;
      inHead[i >> 3]! |= 1 << (i & 7);
      return true;
    });
    return { head, inHead };
  }

  private inTail(order: SortOrder, i: number): boolean {
    return this.d.byRid[i]! >= 0 && (order.inHead[i >> 3]! & (1 << (i & 7))) === 0;
  }

  /** Per order, the tail rows before each TAIL_STEP row ids: made on first use, a few KB. */
  private readonly tailCounts = new WeakMap<SortOrder, Uint32Array>();

  private tailBefore(order: SortOrder): Uint32Array {
    let counts = this.tailCounts.get(order);
    if (!counts) {
      const slots = this.d.byRid.length;
      counts = new Uint32Array(Math.ceil(slots / TAIL_STEP) + 1);
      let n = 0;
      for (let i = 0; i < slots; i++) {
        if (i % TAIL_STEP === 0) counts[i / TAIL_STEP] = n;
        if (this.inTail(order, i)) n++;
      }
      counts[counts.length - 1] = n;
      this.tailCounts.set(order, counts);
    }
    return counts;
  }

  /** The row-id slot of the tail's n-th row (0-based, in row-id order), or the slot count past its end. */
  private tailSlot(order: SortOrder, n: number): number {
    const counts = this.tailBefore(order);
    const slots = this.d.byRid.length;
    if (n >= counts[counts.length - 1]!) return slots;
    let lo = 0;
    let hi = counts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (counts[mid]! <= n) lo = mid;
      else hi = mid - 1;
    }
    let seen = counts[lo]!;
    for (let i = lo * TAIL_STEP; i < slots; i++) {
      if (!this.inTail(order, i)) continue;
      if (seen === n) return i;
      seen++;
    }
    return slots;
  }

  /**
   * The order's row ids from position `start` of the walk (descending, or ascending read from
   * the end), in chunks of at most WALK_SLICE: the head as kept, the tail from the rows in
   * row-id order. A chunk is only valid until the next one is asked for.
   */
  private *walk(order: SortOrder, ascending: boolean, start: number): Generator<Uint32Array> {
    const { head } = order;
    const { byRid, ridBase } = this.d;
    const buffer = new Uint32Array(WALK_SLICE);
    const headChunks = function* (from: number) {
      for (let k = from; k < head.length; k += WALK_SLICE) {
        if (!ascending) yield head.subarray(k, Math.min(head.length, k + WALK_SLICE));
        else {
          const n = Math.min(WALK_SLICE, head.length - k);
          for (let j = 0; j < n; j++) buffer[j] = head[head.length - 1 - k - j]!;
          yield buffer.subarray(0, n);
        }
      }
    };
    const tailLength = this.rows - head.length;
    const inTail = (i: number) => this.inTail(order, i);
    const tailSlot = (n: number) => this.tailSlot(order, n);
    // The tail from its `skip`-th row in the walk's direction, found through the counts, not a scan.
    const tailChunks = function* (skip: number) {
      if (skip >= tailLength) return;
      let n = 0;
      const first = tailSlot(ascending ? tailLength - 1 - skip : skip);
      for (let i = first; i >= 0 && i < byRid.length; i += ascending ? -1 : 1) {
        if (!inTail(i)) continue;
        buffer[n++] = ridBase + i;
        if (n === WALK_SLICE) {
          yield buffer.subarray(0, n);
          n = 0;
        }
      }
      if (n > 0) yield buffer.subarray(0, n);
    };
    if (!ascending) {
      yield* headChunks(start);
      yield* tailChunks(Math.max(0, start - head.length));
    } else {
      yield* tailChunks(start);
      yield* headChunks(Math.max(0, start - tailLength));
    }
  }

  /** Where `rid` stands in the order's walk (see walk), or null when it is not a row of the index. */
  positionOf(order: SortOrder, rid: number, ascending: boolean): number | null {
    const i = rid - this.d.ridBase;
    if (i < 0 || i >= this.d.byRid.length || this.d.byRid[i]! < 0) return null;
    let k: number;
    if (!this.inTail(order, i)) {
      k = order.head.indexOf(rid);
      if (k < 0) return null;
    } else {
      const block = Math.floor(i / TAIL_STEP);
      k = order.head.length + this.tailBefore(order)[block]!;
      for (let j = block * TAIL_STEP; j < i; j++) if (this.inTail(order, j)) k++;
    }
    return ascending ? this.rows - 1 - k : k;
  }

  get profiles(): number {
    return this.d.counts.length;
  }

  /** Bytes held by the typed arrays and buffers (the dictionaries' strings come on top). */
  get bytes(): number {
    const d = this.d;
    const listing = this.listing ? this.listing.ids.bytes + Object.values(this.listing.orders).reduce((s, o) => s + o.head.byteLength + o.inHead.byteLength, 0) : 0;
    return listing + [d.byRid, d.counts, d.pTask, d.pLibrary, d.pLicense, d.pBucket, d.pTagEnd, d.tagIds, d.pProviderEnd, d.providerIds].reduce((s, a) => s + a.byteLength, 0);
  }

  /**
   * The profiles matching the filters other than search and author (those are left to the
   * caller's candidates), or null when the filters need something profiles lack.
   */
  profileMask(filters: CatalogFilters): Uint8Array | null {
    const f = filters;
    const d = this.d;
    const n = d.counts.length;
    // One tight pass over typed arrays per filter (a closure per profile took ~5 ms at 60k profiles).
    const mask = new Uint8Array(n).fill(1);
    const keepWhere = (column: Uint32Array, value: string, dict: Dictionary) => {
      const id = dict.find(value);
      for (let p = 0; p < n; p++) if (column[p] !== id) mask[p] = 0;
    };
    const keepListing = (ends: Uint32Array, ids: Uint32Array, id: number | undefined) => {
      for (let p = 0; p < n; p++) if (mask[p] === 1 && (id === undefined || !hasSorted(ids, p === 0 ? 0 : ends[p - 1]!, ends[p]!, id))) mask[p] = 0;
    };
    if (f.tags.some((t) => t.includes(":"))) return null;
    let buckets: Set<number> | null = null;
    if (f.paramsMin !== null || f.paramsMax !== null) {
      buckets = bucketsCovering(f.paramsMin ?? 0, f.paramsMax);
      if (buckets === null) return null;
    }
    if (f.pipelineTag) keepWhere(d.pTask, f.pipelineTag, d.tasks);
    if (f.license) keepWhere(d.pLicense, f.license, d.licenses);
    for (const tag of new Set(f.tags)) keepListing(d.pTagEnd, d.tagIds, d.tags.find(tag));
    if (f.provider) keepListing(d.pProviderEnd, d.providerIds, d.providers.find(f.provider));
    if (buckets) for (let p = 0; p < n; p++) if (!buckets.has(d.pBucket[p]!)) mask[p] = 0;
    return mask;
  }

  /** The rows of `rids` whose profile the mask accepts, in their order (ids with no row are left out). */
  keepProfiles(rids: Uint32Array, profiles: Uint8Array): Uint32Array {
    const { byRid, ridBase } = this.d;
    const out = new Uint32Array(rids.length);
    let n = 0;
    for (const rid of rids) {
      const p = byRid[rid - ridBase];
      if (p !== undefined && p >= 0 && profiles[p] === 1) out[n++] = rid;
    }
    return out.slice(0, n);
  }

  /**
   * Row ids of one page in `order` (descending, or ascending): the rows that match from position
   * `start` of the walk on (a keyset cursor's next row), after skipping `offset` of them. A walk
   * over typed arrays that stops once the page is full, with `pause` awaited between chunks of
   * WALK_SLICE entries: a rare filter set walks the whole order, some 5–10 ms at 760k rows.
   */
  async page(order: SortOrder, ascending: boolean, match: RowMatch, offset: number, limit: number, pause: () => Promise<void>, start = 0): Promise<number[]> {
    const { byRid, ridBase } = this.d;
    let allowed: Uint8Array | null = null;
    if (match.candidates) {
      allowed = new Uint8Array(byRid.length);
      for (const rid of match.candidates) {
        const i = rid - ridBase;
        if (i >= 0 && i < allowed.length) allowed[i] = 1;
      }
    }
    const out: number[] = [];
    let skip = offset;
    let first = true;
    for (const chunk of this.walk(order, ascending, start)) {
      if (!first) await pause();
      first = false;
      for (let k = 0; k < chunk.length && out.length < limit; k++) {
        const rid = chunk[k]!;
        const i = rid - ridBase;
        const p = byRid[i];
        if (p === undefined || p < 0 || match.profiles[p] !== 1 || (allowed !== null && allowed[i] !== 1)) continue;
        if (skip > 0) skip--;
        else out.push(rid);
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Facet counts over these row ids (ids with no row are skipped). */
  tallyRids(rids: ArrayLike<number>, keepTags?: number): FacetTally {
    const { byRid, ridBase, counts } = this.d;
    // A counter per profile: a Map's updates cost a common term's 200k rows at 3M models some 10 ms.
    const perProfile = new Uint32Array(counts.length);
    for (let k = 0; k < rids.length; k++) {
      const p = byRid[rids[k]! - ridBase];
      if (p !== undefined && p >= 0) perProfile[p] = perProfile[p]! + 1;
    }
    const tally = this.tallier(keepTags);
    for (let p = 0; p < perProfile.length; p++) if (perProfile[p]! > 0) tally.add(p, perProfile[p]!);
    return tally.done();
  }

  /**
   * Exact facet counts over every row matching `filters`, or null when the filters hold a search,
   * an author, a tag with a prefix (dataset:, base_model:, …) or a size range that is not made of
   * whole buckets: those need the database.
   */
  tallyFilters(filters: CatalogFilters, keepTags?: number): FacetTally | null {
    const steps = this.tallyFilterSteps(filters, keepTags);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same as tallyFilters, with `pause` awaited between slices of profiles: a broad filter
   * visits all 60k profiles of the 760k-row catalogue (some 20 ms), too long for background work
   * to hold the event loop.
   */
  async tallyFiltersInSlices(filters: CatalogFilters, pause: () => Promise<void>, keepTags?: number): Promise<FacetTally | null> {
    const steps = this.tallyFilterSteps(filters, keepTags);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await pause();
    }
  }

  private *tallyFilterSteps(filters: CatalogFilters, keepTags?: number): Generator<void, FacetTally | null> {
    const mask = this.fullMask(filters);
    if (mask === null) return null;
    const { counts } = this.d;
    const tally = this.tallier(keepTags);
    for (let p = 0; p < counts.length; p++) {
      if (mask[p] === 1) tally.add(p, counts[p]!);
      if ((p + 1) % PROFILE_SLICE === 0) yield;
    }
    return tally.done();
  }

  /** The exact number of rows matching `filters`, or null as for tallyFilters. */
  countFilters(filters: CatalogFilters): number | null {
    const mask = this.fullMask(filters);
    if (mask === null) return null;
    const { counts } = this.d;
    let n = 0;
    for (let p = 0; p < counts.length; p++) if (mask[p] === 1) n += counts[p]!;
    return n;
  }

  /** The profile mask of filters the profiles hold in full: null with a search or an author. */
  private fullMask(f: CatalogFilters): Uint8Array | null {
    return f.search || f.author ? null : this.profileMask(f);
  }

  /** Every counted language, and the other tags whose count reaches the `keep`-th largest. */
  private topTags(counts: Uint32Array, keep: number): Map<string, number> {
    const dict = this.d.tags;
    const language = languagesOf(dict);
    let others = 0;
    for (let i = 0; i < counts.length; i++) if (counts[i]! > 0 && language[i] !== 1) others++;
    let floor = 1;
    if (others > keep) {
      const xs = new Uint32Array(others);
      let k = 0;
      for (let i = 0; i < counts.length; i++) if (counts[i]! > 0 && language[i] !== 1) xs[k++] = counts[i]!;
      xs.sort();
      floor = xs[xs.length - keep]!;
    }
    const out = new Map<string, number>();
    for (let i = 0; i < counts.length; i++) {
      const n = counts[i]!;
      if (n > 0 && (language[i] === 1 || n >= floor)) out.set(dict.values[i]!, n);
    }
    return out;
  }

  /**
   * Counters that add(profile, rows) feeds, turned into a FacetTally by done(). With `keepTags`,
   * the tally's tags are only those a list of the `keepTags` most common could hold (ties
   * included) and every language: a broad filter counts tens of thousands of distinct tags, and
   * turning them all into map entries cost more than the count itself.
   */
  private tallier(keepTags?: number): { add: (p: number, n: number) => void; done: () => FacetTally } {
    const d = this.d;
    // Typed counters by dictionary id: a profile adds to a dozen values, and a broad filter
    // matches tens of thousands of profiles, so string-keyed maps would dominate.
    const tasks = new Uint32Array(d.tasks.values.length);
    const libraries = new Uint32Array(d.libraries.values.length);
    const licenses = new Uint32Array(d.licenses.values.length);
    const tags = new Uint32Array(d.tags.values.length);
    const providers = new Uint32Array(d.providers.values.length);
    const buckets = new Uint32Array(PARAM_BUCKETS.length);
    let total = 0;
    const add = (p: number, n: number) => {
      total += n;
      const task = d.pTask[p]!;
      if (task !== NONE) tasks[task]! += n;
      const library = d.pLibrary[p]!;
      if (library !== NONE) libraries[library]! += n;
      const license = d.pLicense[p]!;
      if (license !== NONE) licenses[license]! += n;
      const b = d.pBucket[p]!;
      if (b !== NO_BUCKET) buckets[b]! += n;
      const tagEnd = d.pTagEnd[p]!;
      for (let i = p === 0 ? 0 : d.pTagEnd[p - 1]!; i < tagEnd; i++) tags[d.tagIds[i]!]! += n;
      const providerEnd = d.pProviderEnd[p]!;
      for (let i = p === 0 ? 0 : d.pProviderEnd[p - 1]!; i < providerEnd; i++) providers[d.providerIds[i]!]! += n;
    };
    const toMap = (counts: Uint32Array, dict: Dictionary) => {
      const m = new Map<string, number>();
      for (let i = 0; i < counts.length; i++) if (counts[i]! > 0) m.set(dict.values[i]!, counts[i]!);
      return m;
    };
    // A library filters as its tag (CatalogFilters.tags), so its facet counts the tag: GGUF repos
    // name transformers or nothing as their library, yet `library=gguf` finds them.
    const libraryCounts = () => {
      const m = new Map<string, number>();
      d.libraries.values.forEach((library, i) => {
        const tag = d.tags.find(library);
        // Listed when a matching row names it as its library (as the database's count does).
        if (libraries[i]! > 0) m.set(library, Math.max(libraries[i]!, tag === undefined ? 0 : tags[tag]!));
      });
      return m;
    };
    const done = (): FacetTally => {
      const params = new Map<string, number>();
      buckets.forEach((n, i) => {
        if (n > 0) params.set(PARAM_BUCKETS[i]!.id, n);
      });
      return {
        total,
        tasks: toMap(tasks, d.tasks),
        libraries: libraryCounts(),
        licenses: toMap(licenses, d.licenses),
        params,
        tags: keepTags === undefined ? toMap(tags, d.tags) : this.topTags(tags, keepTags),
        providers: toMap(providers, d.providers),
      };
    };
    return { add, done };
  }
}

/** A tag dictionary's language codes, by id (the dictionary is frozen with its index). */
const languageIds = new WeakMap<Dictionary, Uint8Array>();

function languagesOf(dict: Dictionary): Uint8Array {
  let ids = languageIds.get(dict);
  if (!ids) {
    ids = new Uint8Array(dict.values.length);
    dict.values.forEach((v, i) => {
      if (isLanguageCode(v)) ids![i] = 1;
    });
    languageIds.set(dict, ids);
  }
  return ids;
}

function hasSorted(a: Uint32Array, from: number, to: number, v: number): boolean {
  for (let i = from; i < to; i++) {
    const x = a[i]!;
    if (x === v) return true;
    if (x > v) return false;
  }
  return false;
}

/** The bucket indexes a size range covers, or null when its ends fall inside a bucket. */
export function bucketsCovering(min: number, max: number | null): Set<number> | null {
  const starts = min === 0 || PARAM_BUCKETS.some((b) => b.min === min);
  const ends = max === null || PARAM_BUCKETS.some((b) => b.max === max);
  if (!starts || !ends) return null;
  const out = new Set<number>();
  PARAM_BUCKETS.forEach((b, i) => {
    if (b.min >= min && (max === null || (b.max !== null && b.max <= max))) out.add(i);
  });
  return out;
}

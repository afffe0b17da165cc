import { PARAM_BUCKETS } from "#app/catalog-search/listing-params.ts";
import { Dictionary, FacetIndex, NONE, NO_BUCKET } from "#app/catalog-search/index/facet-index.server.ts";

/**
 * Builds the facet index (facet-index.server.ts) from the catalogue's rows: each row's facets are
 * reduced to a profile shared by every row that agrees on all of them (docs/decisions/0010-facet-index.md).
 */

/** The size bucket's index in PARAM_BUCKETS, or NO_BUCKET when the parameter count is unknown. */
export function bucketIndex(params: number | null): number {
  if (params === null || Number.isNaN(params)) return NO_BUCKET;
  const i = PARAM_BUCKETS.findIndex((b) => params >= b.min && (b.max === null || params < b.max));
  return i < 0 ? NO_BUCKET : i;
}

/** Growable typed array (a plain number[] costs 8+ bytes a slot; these cost 1–4). */
class Column<T extends Uint8Array | Uint32Array | Int32Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(Math.max(16, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  trimmed(): T {
    return this.data.slice(0, this.length) as T;
  }
}

const u8 = (n: number) => new Uint8Array(n);
const u32 = (n: number) => new Uint32Array(n);

/** One facet row as the database holds it (tags and providers as JSON lists). */
export interface FacetSourceRow {
  rid: number;
  pipeline_tag: string | null;
  library_name: string | null;
  license: string | null;
  params: number | null;
  tags: string;
  providers: string;
  /** model_details.languages (card and tag languages), or null without a details row. */
  languages: string | null;
}

/**
 * Row ids index an array directly; a catalogue whose ids have huge gaps (mass deletes) is left
 * to the database rather than paying for an array mostly of holes.
 */
export function isIndexableSpan(span: number, rows: number): boolean {
  return span <= Math.max(1_000_000, rows * 4);
}

/**
 * Calls `fn` with each of a row's bare facet tags as model_tags holds them: its own tags without a
 * prefix (license:, dataset:, base_model:, …) plus its card's languages. Repeats are possible.
 */
function forEachBareTag(tagsJson: string, languagesJson: string | null, fn: (tag: string) => void): void {
  for (const list of languagesJson === null ? [tagsJson] : [tagsJson, languagesJson]) {
    const values: unknown = JSON.parse(list);
    if (Array.isArray(values)) for (const t of values) if (typeof t === "string" && t !== "" && !t.includes(":")) fn(t);
  }
}

/** A row's distinct bare facet tags (see forEachBareTag). */
export function bareTags(tagsJson: string, languagesJson: string | null): Set<string> {
  const out = new Set<string>();
  forEachBareTag(tagsJson, languagesJson, (t) => out.add(t));
  return out;
}

/** `into`, holding `ids` sorted ascending without repeats. */
function distinctSorted(into: number[]): number[] {
  into.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < into.length; i++) if (i === 0 || into[i] !== into[i - 1]) into[n++] = into[i]!;
  into.length = n;
  return into;
}

// Rows per slice of finishInSlices: a pass over this many takes about a millisecond.
const FINISH_SLICE = 100_000;

/** Collects rows (in any order), then freezes them into a FacetIndex. */
export class FacetIndexBuilder {
  private readonly tasks = new Dictionary();
  private readonly libraries = new Dictionary();
  private readonly licenses = new Dictionary();
  private readonly tags = new Dictionary();
  private readonly providers = new Dictionary();
  private readonly profileIds = new Map<string, number>();
  private readonly pTask = new Column(u32(1024), u32);
  private readonly pLibrary = new Column(u32(1024), u32);
  private readonly pLicense = new Column(u32(1024), u32);
  private readonly pBucket = new Column(u8(1024), u8);
  private readonly pTagEnd = new Column(u32(1024), u32);
  private readonly tagIds = new Column(u32(4096), u32);
  private readonly pProviderEnd = new Column(u32(1024), u32);
  private readonly providerIds = new Column(u32(256), u32);
  private readonly rowRid = new Column(u32(4096), u32);
  private readonly rowProfile = new Column(u32(4096), u32);

  // Reused for every row: the build reads the whole catalogue, and per-row arrays would be garbage.
  private readonly scratchTags: number[] = [];
  private readonly scratchProviders: number[] = [];

  add(row: FacetSourceRow): void {
    const task = row.pipeline_tag ? this.tasks.id(row.pipeline_tag) : NONE;
    const library = row.library_name ? this.libraries.id(row.library_name) : NONE;
    const license = row.license ? this.licenses.id(row.license) : NONE;
    const bucket = bucketIndex(row.params === null ? null : Number(row.params));
    // The bare tags of model_tags, which the tag filter reads.
    const tagList = this.scratchTags;
    tagList.length = 0;
    forEachBareTag(row.tags, row.languages, (t) => tagList.push(this.tags.id(t)));
    distinctSorted(tagList);
    const providerList = this.scratchProviders;
    providerList.length = 0;
    if (row.providers !== "[]") {
      for (const p of JSON.parse(row.providers) as unknown[]) if (typeof p === "string" && p !== "") providerList.push(this.providers.id(p));
    }
    distinctSorted(providerList);
    const key = `${task},${library},${license},${bucket}|${tagList.join(",")}|${providerList.join(",")}`;
    let profile = this.profileIds.get(key);
    if (profile === undefined) {
      profile = this.pTask.length;
      this.profileIds.set(key, profile);
      this.pTask.push(task);
      this.pLibrary.push(library);
      this.pLicense.push(license);
      this.pBucket.push(bucket);
      for (const t of tagList) this.tagIds.push(t);
      this.pTagEnd.push(this.tagIds.length);
      for (const p of providerList) this.providerIds.push(p);
      this.pProviderEnd.push(this.providerIds.length);
    }
    this.rowRid.push(Number(row.rid));
    this.rowProfile.push(profile);
  }

  /** The index, or null when row ids are too sparse to address directly (see FacetIndex). */
  finish(generation: number): FacetIndex | null {
    const steps = this.finishSteps(generation);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same as finish, with `pause` awaited between slices: over 760k rows the passes take some
   * 20 ms, too long to hold the event loop that serves requests.
   */
  async finishInSlices(generation: number, pause: () => Promise<void>): Promise<FacetIndex | null> {
    const steps = this.finishSteps(generation);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await pause();
    }
  }

  /** finish's passes over the rows, yielding every FINISH_SLICE rows; one code path for both. */
  private *finishSteps(generation: number): Generator<void, FacetIndex | null> {
    const rids = this.rowRid.trimmed();
    yield;
    const profiles = this.rowProfile.trimmed();
    yield;
    let lo = Number.POSITIVE_INFINITY;
    let hi = -1;
    for (let i = 0; i < rids.length; i++) {
      const r = rids[i]!;
      if (r < lo) lo = r;
      if (r > hi) hi = r;
      if ((i + 1) % FINISH_SLICE === 0) yield;
    }
    if (rids.length === 0) lo = 0;
    const span = hi - lo + 1;
    if (!isIndexableSpan(span, rids.length)) return null;
    const byRid = new Int32Array(Math.max(0, span)).fill(-1);
    yield;
    const counts = new Uint32Array(this.pTask.length);
    for (let i = 0; i < rids.length; i++) {
      const p = profiles[i]!;
      byRid[rids[i]! - lo] = p;
      counts[p]! += 1;
      if ((i + 1) % FINISH_SLICE === 0) yield;
    }
    return new FacetIndex({
      generation,
      ridBase: lo,
      byRid,
      counts,
      pTask: this.pTask.trimmed(),
      pLibrary: this.pLibrary.trimmed(),
      pLicense: this.pLicense.trimmed(),
      pBucket: this.pBucket.trimmed(),
      pTagEnd: this.pTagEnd.trimmed(),
      tagIds: this.tagIds.trimmed(),
      pProviderEnd: this.pProviderEnd.trimmed(),
      providerIds: this.providerIds.trimmed(),
      tasks: this.tasks,
      libraries: this.libraries,
      licenses: this.licenses,
      tags: this.tags,
      providers: this.providers,
    });
  }
}

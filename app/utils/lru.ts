/**
 * The one bounded cache of the app: least recently used entries go first once the cache holds
 * more than `maxEntries` entries or, with `sizeOf`, more than `maxBytes` bytes. Sizes vary too much
 * for an entry count alone where values are rendered cards (a few hundred bytes to several
 * hundred kilobytes); small and alike entries can be bounded by a count instead.
 */
export interface LruOptions<V> {
  maxEntries?: number;
  maxBytes?: number;
  /** An entry's size in bytes; its key counts on top. Required with `maxBytes`. */
  sizeOf?: (value: V) => number;
}

export class Lru<V> {
  readonly #map = new Map<string, { value: V; bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #sizeOf: ((value: V) => number) | null;
  #bytes = 0;

  constructor(options: LruOptions<V>) {
    const { maxEntries = Number.POSITIVE_INFINITY, maxBytes = Number.POSITIVE_INFINITY, sizeOf } = options;
    if (!(maxEntries > 0)) throw new RangeError("maxEntries must be positive");
    if (!(maxBytes > 0)) throw new RangeError("maxBytes must be positive");
    if (maxEntries === Number.POSITIVE_INFINITY && maxBytes === Number.POSITIVE_INFINITY) throw new RangeError("an Lru needs maxEntries or maxBytes");
    if (maxBytes !== Number.POSITIVE_INFINITY && !sizeOf) throw new RangeError("maxBytes needs sizeOf");
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
    this.#sizeOf = sizeOf ?? null;
  }

  /** The value, which becomes the most recently used. */
  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    // Re-inserted, so that Map iteration order doubles as recency order.
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.#map.has(key);
  }

  set(key: string, value: V): void {
    // Keys count too: a cache of many tiny values must not outgrow its budget.
    const bytes = this.#sizeOf ? this.#sizeOf(value) + key.length * 2 : 0;
    this.delete(key);
    // An entry larger than the whole budget would evict everything and then itself.
    if (bytes > this.#maxBytes) return;
    this.#map.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldestKey, oldest] of this.#map) {
      if (this.#bytes <= this.#maxBytes && this.#map.size <= this.#maxEntries) break;
      this.#map.delete(oldestKey);
      this.#bytes -= oldest.bytes;
    }
  }

  delete(key: string): boolean {
    const entry = this.#map.get(key);
    if (!entry) return false;
    this.#map.delete(key);
    this.#bytes -= entry.bytes;
    return true;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }

  /** Entries from least to most recently used, without touching their recency. */
  *entries(): IterableIterator<[string, V]> {
    for (const [key, entry] of this.#map) yield [key, entry.value];
  }

  get size(): number {
    return this.#map.size;
  }

  get bytes(): number {
    return this.#bytes;
  }
}

/** Approximate heap footprint of a JS string (UTF-16 code units). */
export function stringBytes(value: string): number {
  return value.length * 2;
}

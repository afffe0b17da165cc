/**
 * A least-recently-used cache bounded by the total size of its entries rather than their count,
 * because rendered cards range from a few hundred bytes to several hundred kilobytes.
 */
export class ByteLru<V> {
  readonly #map = new Map<string, { value: V; bytes: number }>();
  readonly #maxBytes: number;
  readonly #sizeOf: (value: V) => number;
  #bytes = 0;

  constructor(options: { maxBytes: number; sizeOf: (value: V) => number }) {
    if (!(options.maxBytes > 0)) throw new RangeError("maxBytes must be positive");
    this.#maxBytes = options.maxBytes;
    this.#sizeOf = options.sizeOf;
  }

  get(key: string): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    // Re-insert so that Map iteration order doubles as recency order.
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    // Keys count too: a cache of many tiny values must not outgrow its budget.
    const bytes = this.#sizeOf(value) + key.length * 2;
    const previous = this.#map.get(key);
    if (previous) {
      this.#map.delete(key);
      this.#bytes -= previous.bytes;
    }
    // An entry larger than the whole budget would evict everything and then itself.
    if (bytes > this.#maxBytes) return;
    this.#map.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const [oldestKey, oldest] of this.#map) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#map.delete(oldestKey);
      this.#bytes -= oldest.bytes;
    }
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
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

import { describe, expect, it } from "vitest";
import { Lru, stringBytes } from "#app/utils/lru.ts";

describe("Lru", () => {
  it("evicts the least recently used entry past maxEntries", () => {
    const lru = new Lru<number>({ maxEntries: 2 });
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // "b" is now the oldest
    lru.set("c", 3);
    expect([lru.has("a"), lru.has("b"), lru.has("c")]).toEqual([true, false, true]);
    expect(lru.size).toBe(2);
  });

  it("bounds the bytes of values and keys, and skips an entry larger than the budget", () => {
    const lru = new Lru<string>({ maxBytes: 40, sizeOf: stringBytes });
    lru.set("a", "x".repeat(9)); // 18 + 2
    lru.set("b", "y".repeat(9)); // 18 + 2
    expect(lru.bytes).toBe(40);
    lru.set("c", "z"); // 2 + 2: "a" goes
    expect([lru.has("a"), lru.has("b"), lru.has("c")]).toEqual([false, true, true]);
    expect(lru.bytes).toBe(24);
    lru.set("b", "w".repeat(100));
    expect(lru.has("b")).toBe(false);
    expect(lru.bytes).toBe(4);
  });

  it("replaces a key in place and forgets on delete and clear", () => {
    const lru = new Lru<number>({ maxEntries: 3 });
    lru.set("a", 1);
    lru.set("a", 2);
    expect(lru.size).toBe(1);
    expect(lru.get("a")).toBe(2);
    expect(lru.delete("a")).toBe(true);
    expect(lru.delete("a")).toBe(false);
    lru.set("b", 1);
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it("refuses a cache without a bound", () => {
    expect(() => new Lru<number>({})).toThrow(RangeError);
    expect(() => new Lru<number>({ maxBytes: 10 })).toThrow(/sizeOf/);
  });
});

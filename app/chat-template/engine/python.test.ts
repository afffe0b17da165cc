import * as jinja from "@huggingface/jinja";
import { describe, expect, it } from "vitest";
import { pyRepr, pyStr, safeRange, strftime } from "#app/chat-template/engine/python.ts";

const value = (v: unknown) => new jinja.Environment().set("v", v);

describe("strftime", () => {
  it("formats like Python's strftime in the C locale", () => {
    const date = new Date(2024, 0, 5, 0, 7, 3);
    expect(strftime(date, "%a %A %b %h %B %d %e %m %y %Y")).toBe("Fri Friday Jan Jan January 05  5 01 24 2024");
    expect(strftime(date, "%H %I %M %S %p %j %F %T %% %-d %-m %-I %Q")).toBe("00 12 07 03 AM 005 2024-01-05 00:07:03 % 5 1 12 %Q");
  });
});

describe("safeRange", () => {
  it("follows Python's range() and its sandbox cap", () => {
    expect(safeRange(3)).toEqual([0, 1, 2]);
    expect(safeRange(5, 1, -2)).toEqual([5, 3]);
    expect(safeRange(2, 2)).toEqual([]);
    expect(() => safeRange(0, 1, 0)).toThrow("must not be zero");
    expect(() => safeRange(1.5)).toThrow("must be integers");
    expect(() => safeRange(100_001)).toThrow("MAX_RANGE (100000)");
    expect(safeRange(100_000)).toHaveLength(100_000);
  });
});

describe("pyStr and pyRepr", () => {
  it("print containers, booleans, None and floats as Python does", () => {
    expect(pyStr(value([1, "it's", null, true, 2.5]))).toBe(`[1, "it's", None, True, 2.5]`);
    expect(pyStr(value({ a: { b: ["x\n"] } }))).toBe("{'a': {'b': ['x\\n']}}");
    expect(pyStr(value(false))).toBe("False");
    expect(pyStr(value(null))).toBe("None");
    expect(pyStr(value(1.5e-7))).toBe("1.5e-07");
  });

  it("leave strings and integers to the library (null)", () => {
    expect(pyStr(value("text"))).toBeNull();
    expect(pyStr(value(7))).toBeNull();
    expect(pyRepr(value("a'b\"c\u0001"))).toBe("'a\\'b\"c\\x01'");
  });
});

import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "#app/utils/database-errors.ts";

describe("isDatabaseUnavailable", () => {
  it("knows the network's refusals and PostgreSQL's connection errors from other failures", () => {
    for (const code of ["ECONNREFUSED", "EAI_AGAIN", "ENOTFOUND", "08006", "57P01", "57P03"]) expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code })), code).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    for (const code of ["23505", "42P01", "SQLITE_CONSTRAINT"]) expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code })), code).toBe(false);
    expect(isDatabaseUnavailable(new Error("a bug"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { SIGN_IN_ERRORS, signInErrorPath, signInErrorText } from "#app/auth/sign-in-errors.ts";

describe("the sign-in page's error texts", () => {
  it("shows the fixed text of a code this site sends", () => {
    expect(signInErrorText("not_allowed")).toBe(SIGN_IN_ERRORS.not_allowed);
    expect(signInErrorText(new URL(`http://x${signInErrorPath("unreachable")}`).searchParams.get("error"))).toBe(SIGN_IN_ERRORS.unreachable);
  });

  it("shows nothing for no code, an unknown one, or a name every object has", () => {
    for (const code of [null, "", "Call +1 555 0100 to restore your account", "constructor", "toString", "__proto__", "hasOwnProperty"]) expect(signInErrorText(code)).toBeNull();
  });
});

import { expect } from "vitest";

/** The nonce a response's Content-Security-Policy allows scripts by; fails the test when it has none. */
export function nonceOf(res: Response): string {
  const csp = res.headers.get("content-security-policy") ?? "";
  const m = /'nonce-([^']+)'/.exec(csp);
  expect(m, `no nonce in ${csp}`).not.toBeNull();
  return m![1]!;
}

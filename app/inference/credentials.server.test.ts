import { describe, expect, it } from "vitest";
import { providerKeyVariable, redactSecrets, resolveCredential, serverSecrets, visitorTokenFrom } from "#app/inference/credentials.server.ts";

describe("credentials", () => {
  it("prefers the visitor's token, then the provider's server key, then HF_TOKEN", () => {
    const env = { HF_TOKEN: "hf_server0000000", MODELYARD_PROVIDER_KEY_FIREWORKS_AI: "fw_key_123456" };
    expect(resolveCredential({ visitorToken: "hf_visitor1111111", provider: "fireworks-ai", env })).toEqual({ token: "hf_visitor1111111", source: "visitor" });
    expect(resolveCredential({ visitorToken: undefined, provider: "fireworks-ai", env })).toEqual({ token: "fw_key_123456", source: "server-provider-key" });
    expect(resolveCredential({ visitorToken: undefined, provider: "together", env })).toEqual({ token: "hf_server0000000", source: "server-hf-token" });
    expect(resolveCredential({ visitorToken: undefined, provider: "together", env: { HF_TOKEN: "  " } })).toEqual({ token: undefined, source: "none" });
    expect(providerKeyVariable("fireworks-ai")).toBe("MODELYARD_PROVIDER_KEY_FIREWORKS_AI");
  });

  it("reads the provider token from X-Provider-Token only, never from Authorization", () => {
    expect(visitorTokenFrom(new Headers({ "X-Provider-Token": "hf_abc" }))).toBe("hf_abc");
    expect(visitorTokenFrom(new Headers({ "X-Provider-Token": "Bearer   hf_abc  " }))).toBe("hf_abc");
    expect(visitorTokenFrom(new Headers({ "X-Provider-Token": "undefined" }))).toBeUndefined();
    expect(visitorTokenFrom(new Headers({ "X-Provider-Token": "a b" }))).toBeUndefined();
    expect(visitorTokenFrom(new Headers({ Authorization: "Bearer hf_abc" }))).toBeUndefined();
    expect(visitorTokenFrom(new Headers())).toBeUndefined();
  });

  it("leaves the server's keys out when the caller may not spend them", () => {
    const env = { HF_TOKEN: "hf_server0000000" };
    expect(resolveCredential({ visitorToken: undefined, provider: "together", env, serverKeys: false })).toEqual({ token: undefined, source: "none" });
    expect(resolveCredential({ visitorToken: "hf_mine000000", provider: "together", env, serverKeys: false })).toEqual({ token: "hf_mine000000", source: "visitor" });
  });

  it("lists the server's secrets for scrubbing", () => {
    expect(serverSecrets({ HF_TOKEN: "a1", MODELYARD_PROVIDER_KEY_X: "b2", MODELYARD_ENDPOINT_KEY_Y: "c3", PATH: "/bin" }).sort()).toEqual(["a1", "b2", "c3"]);
  });
});

describe("redactSecrets", () => {
  it("removes exact secrets, longest first, wherever they appear", () => {
    expect(redactSecrets("key=abcd1234 and abcd1234xyz", ["abcd1234", "abcd1234xyz"])).toBe("key=[redacted] and [redacted]");
  });

  it("removes token-shaped strings it was not told about", () => {
    const text = 'bad token hf_AbCdEf123456 / org api_org_ZZZZZZZZ / openai sk-proj-abcdEFGH1234 / "Authorization: Bearer r8_secretkey" / Key 1234:abcd / myd_AbCdEfGh12345678';
    const out = redactSecrets(text);
    expect(out).toBe('bad token [redacted] / org [redacted] / openai [redacted] / "Authorization: Bearer [redacted]" / Key [redacted] / [redacted]');
  });

  it("keeps ordinary words that merely contain 'key'", () => {
    const line = "[inference] status=200 auth=server-provider-key stream=0 ms=12";
    expect(redactSecrets(line)).toBe(line);
    expect(redactSecrets("the key thing is Key to success")).toBe("the key thing is Key to success");
  });

  it("leaves ordinary text alone and ignores tiny secrets", () => {
    expect(redactSecrets("Model foo/bar is currently loading", ["a", ""])).toBe("Model foo/bar is currently loading");
  });
});

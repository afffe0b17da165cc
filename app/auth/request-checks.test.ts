import { BlockList } from "node:net";
import { describe, expect, it } from "vitest";
import { emailAllowed, readAuthConfig } from "#app/auth/auth-config.server.ts";
import { clientAddressOf } from "#app/auth/client-address.server.ts";
import { crossSiteRefusal } from "#app/auth/cross-site.server.ts";
import { routedPath } from "#app/auth/request-gate.server.ts";
import { safeRedirect } from "#app/auth/viewer.server.ts";
import { checkCostCaps, withTokenBound } from "#app/inference/cost-caps.server.ts";
import { readGatewayConfig } from "#app/inference/gateway-config.server.ts";
import { GatewayError } from "#app/inference/errors.server.ts";
import { nestingDepth } from "#app/inference/parse-request.server.ts";

const h = (o: Record<string, string>) => new Headers(o);

describe("cross-site requests", () => {
  it("refuses state-changing requests another site's page sent, and lets the site's own and non-browsers through", () => {
    expect(crossSiteRefusal("POST", h({ "sec-fetch-site": "cross-site", origin: "http://evil.example" }), null)).toBe("a cross-site request");
    expect(crossSiteRefusal("POST", h({ "sec-fetch-site": "same-site" }), null)).toBe("a same-site request");
    expect(crossSiteRefusal("POST", h({ origin: "http://evil.example", host: "modelyard.test" }), null)).toBe("a request from http://evil.example");
    expect(crossSiteRefusal("POST", h({ origin: "null", host: "modelyard.test" }), null)).toBe("a request from an opaque origin");
    expect(crossSiteRefusal("POST", h({ "sec-fetch-site": "same-origin", origin: "http://modelyard.test", host: "modelyard.test" }), null)).toBeNull();
    expect(crossSiteRefusal("POST", h({ origin: "https://models.example.org", host: "10.0.0.9:3000" }), "https://models.example.org")).toBeNull();
    // DNS rebinding: the attacker's name resolves to this server, so Origin and Host agree.
    const rebound = h({ "sec-fetch-site": "same-origin", origin: "http://rebind.attacker.example:3000", host: "rebind.attacker.example:3000" });
    expect(crossSiteRefusal("POST", rebound, "https://models.example.org")).toBe("a request from http://rebind.attacker.example:3000");
    expect(crossSiteRefusal("POST", h({}), null)).toBeNull();
    expect(crossSiteRefusal("GET", h({ "sec-fetch-site": "cross-site" }), null)).toBeNull();
  });
});

describe("client addresses", () => {
  const proxies = new BlockList();
  proxies.addSubnet("10.0.0.0", 8, "ipv4");
  it("believes X-Forwarded-For only from a trusted proxy, reading it from the right", () => {
    expect(clientAddressOf("203.0.113.5", "1.2.3.4", proxies)).toBe("203.0.113.5");
    expect(clientAddressOf("10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.3", proxies)).toBe("198.51.100.7");
    expect(clientAddressOf("10.0.0.2", "not-an-ip", proxies)).toBe("10.0.0.2");
    expect(clientAddressOf("::ffff:127.0.0.1", null, null)).toBe("127.0.0.1");
    expect(clientAddressOf("10.0.0.2", "1.2.3.4", null)).toBe("10.0.0.2");
  });

  it("reads MODELYARD_TRUSTED_PROXIES and names a bad entry", () => {
    expect(readAuthConfig({ MODELYARD_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1" }).trustedProxies?.check("10.1.2.3")).toBe(true);
    expect(() => readAuthConfig({ MODELYARD_TRUSTED_PROXIES: "proxy.local" })).toThrow(/MODELYARD_TRUSTED_PROXIES: 'proxy.local'/);
    expect(() => readAuthConfig({ MODELYARD_ACCESS: "everyone" })).toThrow(/MODELYARD_ACCESS must be open, members or private/);
    expect(() => readAuthConfig({ MODELYARD_OIDC_ISSUER: "https://id.example" })).toThrow(/needs all of/);
    expect(readAuthConfig({}).access).toBe("members");
  });
});

describe("allow-lists and redirects", () => {
  it("allows listed addresses and domains, and no one new when the list is empty", () => {
    expect(emailAllowed("a@corp.example", ["corp.example"])).toBe(true);
    expect(emailAllowed("a@corp.example", ["@corp.example"])).toBe(true);
    expect(emailAllowed("a@evil.example", ["corp.example", "b@evil.example"])).toBe(false);
    expect(emailAllowed("b@evil.example", ["corp.example", "b@evil.example"])).toBe(true);
    expect(emailAllowed("a@corp.example", [])).toBe(false);
  });

  it("goes back only to same-site paths", () => {
    expect(safeRedirect("/models?search=x#top")).toBe("/models?search=x#top");
    for (const bad of ["//evil.example/", "/\\evil.example/", "https://evil.example/", "/\tevil", "evil", "", null, "/.//evil.example/phish", "/%2e//evil.example/", "/a/..//evil.example/"]) expect(safeRedirect(bad), String(bad)).toBe("/");
  });
});

describe("cost caps", () => {
  const capped = (task: string, parameters: unknown, inputs?: unknown) => {
    try {
      checkCostCaps(task, parameters, inputs, readGatewayConfig({}).caps);
      return null;
    } catch (error) {
      return error instanceof GatewayError ? error.body : error;
    }
  };

  it("bounds what a call may cost, naming the field, wherever the parameter sits", () => {
    expect(capped("conversational", { n: 1_000_000, max_tokens: 2_000_000_000 })).toMatchObject({ status: 400, field: "parameters.n" });
    expect(capped("conversational", { max_tokens: 4097 })).toMatchObject({ field: "parameters.max_tokens", message: "parameters.max_tokens is 4097, above this server's bound of 4096 tokens per call." });
    expect(capped("summarization", { generate_parameters: { max_new_tokens: 10_000 } })).toMatchObject({ field: "parameters.generate_parameters.max_new_tokens" });
    expect(capped("text-to-image", { width: 4096, height: 512 })).toMatchObject({ field: "parameters.width" });
    expect(capped("text-to-image", { num_inference_steps: 101 })).toMatchObject({ field: "parameters.num_inference_steps" });
    expect(capped("text-to-speech", {}, "x".repeat(5001))).toMatchObject({ field: "inputs" });
    expect(capped("conversational", { max_tokens: 4096, n: 4 })).toBeNull();
    expect(capped("text-to-image", { width: 1024, height: 1024, num_inference_steps: 30 })).toBeNull();
  });

  it("bounds the length of a chat call that sets none (a null is none), and of no other task", () => {
    const caps = readGatewayConfig({}).caps;
    expect(withTokenBound("conversational", undefined, caps)).toEqual({ max_tokens: 1024 });
    expect(withTokenBound("conversational", { max_tokens: null, temperature: 0.5 }, caps)).toEqual({ max_tokens: 1024, temperature: 0.5 });
    expect(withTokenBound("conversational", undefined, { ...caps, maxTokens: 300 })).toEqual({ max_tokens: 300 });
    expect(withTokenBound("conversational", { max_completion_tokens: 10 }, caps)).toEqual({ max_completion_tokens: 10 });
    // TGI's own default is 20 tokens, and small-context models refuse a bound near the cap.
    expect(withTokenBound("text-generation", { temperature: 0.5 }, caps)).toEqual({ temperature: 0.5 });
    expect(withTokenBound("text-to-image", { width: 512 }, caps)).toEqual({ width: 512 });
    expect(withTokenBound(null, undefined, caps)).toBeUndefined();
  });

  it("measures nesting without recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestingDepth(deep, 64)).toBe(65);
    expect(nestingDepth({ a: [{ b: 1 }] }, 64)).toBe(3);
  });
});

describe("the gate's path", () => {
  it("is the path the router serves, dot segments and backslashes resolved", () => {
    expect(routedPath("/models?search=llama")).toBe("/models");
    expect(routedPath("/assets/../api/models?search=x")).toBe("/api/models");
    expect(routedPath("/assets/%2e%2e/meta-llama/Meta-Llama-3-8B")).toBe("/meta-llama/Meta-Llama-3-8B");
    expect(routedPath("/assets/..\\models.data")).toBe("/models.data");
    expect(routedPath("/assets/%2E%2e/%2e%2E/x")).toBe("/x");
    // The router joins the raw URL to its origin too, so a doubled slash stays a path.
    expect(routedPath("//evil.example/models")).toBe("//evil.example/models");
    expect(routedPath("/assets/entry-abc.js")).toBe("/assets/entry-abc.js");
  });
});

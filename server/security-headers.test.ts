import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { applySecurityHeaders, contentSecurityPolicy, createNonce, securityHeaders } from "#server/security-headers.ts";

function directives(policy: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name, sources);
  }
  return map;
}

describe("security headers", () => {
  it("gives each response its own unguessable nonce", () => {
    // More than one draw of the pool.
    const nonces = new Set(Array.from({ length: 600 }, () => createNonce()));
    expect(nonces.size).toBe(600);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  it("lets scripts run only from this origin or with the nonce", () => {
    const csp = directives(contentSecurityPolicy("abc123=="));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc123=='"]);
    expect(contentSecurityPolicy("abc123==")).not.toMatch(/unsafe-eval/);
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
  });

  it("allows what pages really load: card images from the web, demo data and blob URLs, the task video frame", () => {
    const csp = directives(contentSecurityPolicy("n"));
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:", "https:", "http:"]);
    expect(csp.get("media-src")).toEqual(["'self'", "data:", "blob:", "https:", "http:"]);
    expect(csp.get("frame-src")).toEqual(["https://www.youtube-nocookie.com"]);
    // Inline style attributes (shiki, bar widths) only; styles cannot run script.
    expect(csp.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it("sends nosniff, a referrer policy, frame denial and a restrictive permissions policy", () => {
    const headers = securityHeaders("n");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["X-Frame-Options"]).toBe("DENY");
    const permissions = headers["Permissions-Policy"] ?? "";
    for (const feature of ["camera", "geolocation", "payment", "usb"]) expect(permissions).toContain(`${feature}=()`);
    // The audio widgets record on this origin only.
    expect(permissions).toContain("microphone=(self)");
    // Every other feature is switched off, and nothing is granted to another origin.
    for (const entry of permissions.split(", ")) expect(entry).toMatch(entry.startsWith("microphone=") ? /^microphone=\(self\)$/ : /^[a-z-]+=\(\)$/);
  });

  it("sets the headers on a Node response, and a later writeHead keeps them", () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    const nonce = applySecurityHeaders(res);
    res.writeHead(200, { "Content-Type": "application/json" });
    const sent = res.getHeaders();
    expect(sent["content-security-policy"]).toBe(contentSecurityPolicy(nonce));
    expect(sent["x-content-type-options"]).toBe("nosniff");
    expect(sent["x-frame-options"]).toBe("DENY");
    expect(sent["content-type"]).toBe("application/json");
  });
});

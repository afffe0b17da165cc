import { BlockList } from "node:net";
import { describe, expect, it } from "vitest";
import { limitKeyOf, requestIdOf } from "#app/auth/client-address.server.ts";

describe("per-address limits", () => {
  it("count an IPv4 address alone and an IPv6 address by its /64", () => {
    expect(limitKeyOf("203.0.113.5")).toBe("203.0.113.5");
    expect(limitKeyOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:0db8:0001:0002:ffff:eeee:dddd:cccc")).toBe("2001:db8:1:2::/64");
    expect(limitKeyOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitKeyOf("::1")).toBe("0:0:0:0::/64");
    expect(limitKeyOf("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(limitKeyOf("unknown")).toBe("unknown");
    expect(limitKeyOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(limitKeyOf("::")).toBe("0:0:0:0::/64");
    // IPv4-mapped, dotted or in hex, is the IPv4 client; an embedded IPv4 tail is two groups.
    expect(limitKeyOf("::ffff:8.8.8.8")).toBe("8.8.8.8");
    expect(limitKeyOf("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(limitKeyOf("1::2:3:4:5:1.2.3.4")).toBe("1:0:2:3::/64");
  });
});

describe("a request's id", () => {
  const trusted = new BlockList();
  trusted.addSubnet("10.0.0.0", 8, "ipv4");
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("is a trusted proxy's X-Request-Id, as it sent it", () => {
    expect(requestIdOf("10.1.2.3", "lb-7f3a9c", trusted)).toBe("lb-7f3a9c");
    expect(requestIdOf("::ffff:10.1.2.3", "Root=1-67891233-abcdef012345678912345678", trusted)).toBe("Root=1-67891233-abcdef012345678912345678");
  });

  it("is made here for anyone else, for a header no id looks like, and without trusted proxies", () => {
    expect(requestIdOf("192.0.2.7", "chosen-by-the-client", trusted)).toMatch(UUID);
    expect(requestIdOf("10.1.2.3", "has spaces\nand a newline", trusted)).toMatch(UUID);
    expect(requestIdOf("10.1.2.3", "x".repeat(200), trusted)).toMatch(UUID);
    expect(requestIdOf("10.1.2.3", ["a", "b"], trusted)).toMatch(UUID);
    expect(requestIdOf("10.1.2.3", "lb-7f3a9c", null)).toMatch(UUID);
    expect(requestIdOf("10.1.2.3", undefined, trusted)).not.toBe(requestIdOf("10.1.2.3", undefined, trusted));
  });
});

import { randomUUID } from "node:crypto";
import { type BlockList, isIP } from "node:net";
import { readAuthConfig } from "#app/auth/auth-config.server.ts";
import { configEnv } from "#app/utils/env.server.ts";

/**
 * The client's address: the socket's, unless the socket is a proxy named in
 * MODELYARD_TRUSTED_PROXIES; then X-Forwarded-For is read from the right, past every trusted hop,
 * to the first address a trusted proxy saw. Without trusted proxies no forwarded header is believed.
 */
export function clientAddressOf(socketAddress: string, forwardedFor: string | null, trusted: BlockList | null): string {
  const socket = normalise(socketAddress);
  if (!trusted || !forwardedFor || !isTrusted(socket, trusted)) return socket || "unknown";
  const hops = forwardedFor
    .split(",")
    .map((h) => normalise(h.trim()))
    .filter((h) => h !== "");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return socket;
    if (!isTrusted(hop, trusted)) return hop;
  }
  return hops[0] ?? socket;
}

/**
 * Who a per-address limit counts: an IPv4 address, or an IPv6 address's /64 network. One
 * subscriber is routinely given a whole /64, so keying by the full address let one client take a
 * fresh allowance with every address of its network.
 */
export function limitKeyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  // A zone id (fe80::1%eth0) names an interface, not a client.
  const [head = "", tail] = (address.split("%")[0] ?? "").split("::");
  // An embedded IPv4 part (::ffff:1.2.3.4) is two groups.
  const expand = (part: string): string[] =>
    part === ""
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [g];
          const [a = 0, b = 0, c = 0, d = 0] = g.split(".").map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const left = expand(head);
  const right = tail === undefined ? [] : expand(tail);
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : Math.max(0, 8 - left.length - right.length)).fill("0"), ...right].map((g) => Number.parseInt(g, 16) || 0);
  // An IPv4-mapped address, however written, is that IPv4 client.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** "::ffff:127.0.0.1" as "127.0.0.1", so one client has one key whichever stack accepted it. */
function normalise(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return trusted.check(address, family === 6 ? "ipv6" : "ipv4");
}

// What a proxy's request id may look like: a UUID, a hex trace id, a load balancer's "Root=1-…".
const REQUEST_ID = /^[A-Za-z0-9._:=-]{1,128}$/;

/**
 * A request's id: the X-Request-Id a trusted proxy (MODELYARD_TRUSTED_PROXIES) sent, so one id
 * follows the request through both; otherwise a new one. Anyone else's header is ignored, as
 * their X-Forwarded-For is.
 */
export function requestIdOf(socketAddress: string, given: string | string[] | undefined, trusted: BlockList | null): string {
  if (typeof given === "string" && trusted && REQUEST_ID.test(given) && isTrusted(normalise(socketAddress), trusted)) return given;
  return randomUUID();
}

let trustedProxies: BlockList | null | undefined;

/** requestIdOf with the process's MODELYARD_TRUSTED_PROXIES (server/app.ts, for every request). */
export function requestIdFor(socketAddress: string, given: string | string[] | undefined): string {
  trustedProxies ??= readAuthConfig(configEnv()).trustedProxies;
  return requestIdOf(socketAddress, given, trustedProxies);
}

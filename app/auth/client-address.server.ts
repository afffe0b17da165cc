import { type BlockList, isIP } from "node:net";

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

/** "::ffff:127.0.0.1" as "127.0.0.1", so one client has one key whichever stack accepted it. */
function normalise(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return trusted.check(address, family === 6 ? "ipv6" : "ipv4");
}

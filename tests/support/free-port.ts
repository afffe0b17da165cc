import net from "node:net";

/** A loopback port nothing listens on now: bound, then released (a server's to take, or a connection's to be refused). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

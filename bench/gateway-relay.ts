/**
 * The floor under bench/gateway.ts's figures: a byte relay with nothing in it. It forwards each
 * request to the simulator (`--upstream <url>`) over keep-alive connections and pipes the answer
 * back unchanged (no parsing, no events), so "relay minus direct" is what one extra Node HTTP hop
 * costs on this machine. Prints "relay at http://127.0.0.1:<port>" when ready. Benchmark-only.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { upstream: { type: "string" } } });
const upstream = new URL(values.upstream ?? "http://127.0.0.1:1");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

const server = http.createServer((req, res) => {
  const out = http.request(
    { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host }, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  res.on("close", () => {
    if (!res.writableFinished) out.destroy();
  });
  req.pipe(out);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`relay at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => process.exit(0));

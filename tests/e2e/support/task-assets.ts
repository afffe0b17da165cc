/**
 * A stand-in for the Hub's task-guide asset host (MODELYARD_TASK_ASSET_BASE) on this machine:
 * every image name is answered with a small PNG and every recording with a WAV, so pages that show
 * the guides' demo media load real files without the network.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { makePng, makeWav } from "#tests/simulators/media.ts";

export interface TaskAssetHost {
  /** The value for MODELYARD_TASK_ASSET_BASE. */
  base: string;
  /** The paths asked for, in order (clear it with `requests.length = 0`). */
  requests: string[];
  /** Stops answering, dropping open connections, as a host that went away. */
  close(): Promise<void>;
}

export async function startTaskAssetHost(): Promise<TaskAssetHost> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    requests.push(url);
    if (/\.(png|jpe?g|gif|webp)$/i.test(url)) {
      // As the Hub's asset host does: readable by any page, so a widget can load the guide's image by URL.
      res.writeHead(200, { "Content-Type": "image/png", "Access-Control-Allow-Origin": "*" }).end(makePng(url, 64));
    } else if (/\.(wav|flac|mp3|ogg)$/i.test(url)) {
      res.writeHead(200, { "Content-Type": "audio/wav" }).end(makeWav(url));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tasks-assets`,
    requests,
    close: async () => {
      if (!server.listening) return;
      const closed = new Promise((r) => server.close(r));
      server.closeAllConnections();
      await closed;
    },
  };
}

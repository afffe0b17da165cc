import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-serve-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * Runs `modelyard serve` until it exits, or until it announces that it is running (then stops it):
 * a server that announces itself on a port it could not take must fail the test, not hang it.
 */
function serveUntilExitOrAnnounced(args: string[]): Promise<{ code: number | null; announced: boolean; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "serve", ...args], {
      cwd: ROOT,
      env: { ...process.env, HOST: "127.0.0.1", DATABASE_URL: `sqlite:${path.join(tmp, "serve.db")}`, MODELYARD_SKIP_BUNDLED: "1" },
    });
    let out = "";
    let announced = false;
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!announced && /running at http/.test(out)) {
        announced = true;
        child.kill("SIGKILL");
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("close", (code) => resolve({ code, announced, out }));
  });
}

describe("modelyard serve", () => {
  it("exits 1 naming the setting when its port is taken, rather than announcing a server that listens on nothing", { timeout: 300_000 }, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const { code, announced, out } = await serveUntilExitOrAnnounced(["--port", String(port)]);
      expect(announced, out).toBe(false);
      expect(code, out).toBe(1);
      expect(out).toContain(`Cannot listen on 127.0.0.1:${port}: the port is already in use`);
      expect(out).toContain("set PORT (or --port) to a free port");
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { migrate } from "#app/db/migrate.server.ts";
import { isBulkLoadPending, startBulkLoad } from "#app/db/queries/bulk-load.server.ts";
import { importPaths } from "#app/import/importer.server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-serve-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * Runs `modelyard serve` until it exits, or until it announces that it is running (then stops it):
 * a server that announces itself on a port it could not take must fail the test, not hang it.
 */
function serveUntilExitOrAnnounced(args: string[], db = path.join(tmp, "serve.db")): Promise<{ code: number | null; announced: boolean; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "modelyard.mjs"), "serve", ...args], {
      cwd: ROOT,
      env: { ...process.env, HOST: "127.0.0.1", DATABASE_URL: `sqlite:${db}`, MODELYARD_SKIP_BUNDLED: "1" },
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

  it("builds the indexes an import stopped mid-way left pending before it serves", { timeout: 300_000 }, async () => {
    const file = path.join(tmp, "pending.db");
    const rows = path.join(tmp, "rows.jsonl");
    fs.writeFileSync(rows, ["acme/one", "acme/two"].map((id) => JSON.stringify({ id, pipeline_tag: "fill-mask", tags: ["transformers"], downloads: 1, likes: 1 })).join("\n") + "\n");
    const indexes = (h: ReturnType<typeof openDatabase>) => h.sqlite!.prepare("select count(*) as n from sqlite_master where type = 'index' and tbl_name = 'model_tags'").get() as { n: number };
    const before = openDatabase(`sqlite:${file}`);
    await migrate(before);
    await importPaths(before, [rows], { statsAsOf: "2024-07-11" });
    const built = indexes(before).n;
    // Where an import killed while filling an empty catalogue leaves it: indexes dropped, their definitions saved.
    expect(await startBulkLoad(before)).toBe(true);
    expect(indexes(before).n).toBeLessThan(built);
    await before.close();

    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    const { announced, out } = await serveUntilExitOrAnnounced(["--port", String(port)], file);
    expect(announced, out).toBe(true);
    expect(out).toContain("Building an index an interrupted import left pending");

    const after = openDatabase(`sqlite:${file}`);
    try {
      expect(await isBulkLoadPending(after)).toBe(false);
      expect(indexes(after).n).toBe(built);
    } finally {
      await after.close();
    }
  });
});

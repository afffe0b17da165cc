import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLineLog } from "#app/utils/line-log.server.ts";

describe("line log", () => {
  const dirs: string[] = [];
  const file = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-log-"));
    dirs.push(dir);
    const p = path.join(dir, "out.log");
    return { p, fd: fs.openSync(p, "w") };
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it("never writes on the caller's turn, then writes every line in order", async () => {
    const { p, fd } = file();
    const log = createLineLog(fd);
    for (let i = 0; i < 1000; i++) log(`line ${i}`);
    // Nothing written yet: the caller (a request) never waits for the log.
    expect(fs.readFileSync(p, "utf8")).toBe("");
    await log.drained();
    const lines = fs.readFileSync(p, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(1000);
    expect(lines[0]).toBe("line 0");
    expect(lines[999]).toBe("line 999");
    fs.closeSync(fd);
  });

  it("drops lines past its buffer and says how many, instead of growing or blocking", async () => {
    const { p, fd } = file();
    const log = createLineLog(fd, 100);
    for (let i = 0; i < 50; i++) log(`line number ${i}`);
    await log.drained();
    const text = fs.readFileSync(p, "utf8");
    const kept = text.split("\n").filter((l) => l.startsWith("line number"));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(50);
    expect(text).toContain(`[log] ${50 - kept.length} lines dropped: the log's reader fell behind`);
    fs.closeSync(fd);
  });

  it("survives a descriptor that fails: drained() still settles and later lines are tried", async () => {
    // A descriptor number no process here has open (a closed one could be reused meanwhile).
    const log = createLineLog(987_654);
    log("into the void");
    await log.drained();
    log("and again");
    await log.drained();
  });

  it("flushes what is queued synchronously, for process exit", () => {
    const { p, fd } = file();
    const log = createLineLog(fd);
    log("last words");
    log.flushSync();
    expect(fs.readFileSync(p, "utf8")).toBe("last words\n");
    fs.closeSync(fd);
  });
});

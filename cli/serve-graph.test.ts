import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

// `modelyard serve` as bin/modelyard.mjs runs it, with tsx reporting every module it loads; the
// process exits once the server announces its URL, printing what tsx loaded.
const SCRIPT = `
import { register } from "tsx/esm/api";
const loaded = new Set();
const stopTypeScript = register({ onImport: (url) => loaded.add(url.split("?")[0]) });
process.env.NODE_ENV ??= "production";
// The announcement is a log line, written to stdout's descriptor off the event loop (app/utils/line-log.server.ts).
import fs from "node:fs";
const write = fs.write;
fs.write = (fd, buffer, ...rest) => {
  if (fd === 1 && /running at http/.test(String(buffer))) {
    fs.writeSync(1, "tsx-loaded " + JSON.stringify([...loaded]) + "\\n");
    process.exit(0);
  }
  return write(fd, buffer, ...rest);
};
const { runCli } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, "cli", "main.ts")).href)});
runCli(["serve", "--port", "0"], { stopTypeScript });
`;

describe("modelyard serve", () => {
  it("runs app/ from the build only: tsx loads the CLI and server/, and no module of app/ (ADR 0019)", { timeout: 300_000 }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "modelyard-graph-"));
    try {
      const res = spawnSync(process.execPath, ["--input-type=module", "-e", SCRIPT], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 280_000,
        env: { ...process.env, HOST: "127.0.0.1", DATABASE_URL: `sqlite:${path.join(dir, "modelyard.db")}`, MODELYARD_SKIP_BUNDLED: "1" },
      });
      const line = res.stdout.split("\n").find((l) => l.startsWith("tsx-loaded "));
      expect(line, `${res.stdout}\n${res.stderr}`).toBeDefined();
      const loaded = (JSON.parse(line!.slice("tsx-loaded ".length)) as string[]).map((url) => path.relative(ROOT, new URL(url).pathname));
      // The hook sees the CLI and the server, so an empty list below is not a blind hook.
      expect(loaded).toEqual(expect.arrayContaining(["cli/serve-command.ts", "server/app.ts", "server/server-entry.ts"]));
      expect(loaded.filter((p) => p.startsWith("app/"))).toEqual([]);
      // The bundle is imported after tsx is stopped: through tsx it gained an inline source map
      // that Node kept parsed (ADR 0030). The server answered, so the bundle did load.
      expect(loaded.filter((p) => p.startsWith("build/"))).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

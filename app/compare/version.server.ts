/**
 * Modelyard's version, for session files. Read from the package.json above this module, found by
 * walking up, since the module runs from app/ under tsx and from build/server/ once bundled.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

export function modelyardVersion(): string {
  if (cached !== undefined) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
      if (typeof parsed === "object" && parsed !== null && "name" in parsed && parsed.name === "modelyard" && "version" in parsed && typeof parsed.version === "string") {
        return (cached = parsed.version);
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return (cached = "unknown");
    dir = up;
  }
}

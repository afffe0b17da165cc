import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Where the large reference data lives: MODELYARD_SHARED_DATA, or ../shared/data beside the project. */
export function sharedDataPath(): string {
  return path.resolve(process.env["MODELYARD_SHARED_DATA"] || path.join(ROOT, "..", "shared", "data"));
}

/**
 * The shared data folder, for the data suite, the fixture builder and the benchmarks. Missing data
 * is an error with the way out in it, never a quiet pass.
 */
export function sharedDataDir(): string {
  const dir = sharedDataPath();
  if (!fs.existsSync(path.join(dir, "README.md"))) {
    throw new Error(
      `The shared reference data is not at ${dir}. The data suite and the fixture builder need it: ` +
        "put the data folder there, or set MODELYARD_SHARED_DATA=/path/to/shared/data. (`npm test` does not need it.)",
    );
  }
  return dir;
}

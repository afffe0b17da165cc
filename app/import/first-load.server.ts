/**
 * The catalogue an empty database is given at start (`modelyard serve` loads the bundled one).
 * Instances started together on one new PostgreSQL database all found it empty and all loaded the
 * same file at once; each decides which models are new before its batch's transaction, so two
 * inserted the same tags and all but one stopped (`duplicate key … "model_tags_pkey"`). The check
 * and the load now run under one lock across instances: the others wait, then find it loaded.
 */
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { runExclusively } from "#app/db/queries/job-lock.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";
import { type ImportOptions, type ImportSummary, importPaths } from "#app/import/importer.server.ts";

/**
 * Imports `paths` if the catalogue holds no model, once across instances; null when it held some.
 * `beforeLoading` is awaited once the catalogue is found empty, before anything is written (the
 * start log's line).
 */
export async function importIntoEmptyCatalogue(
  handle: DatabaseHandle,
  paths: string[],
  opts: ImportOptions = {},
  beforeLoading?: () => void | Promise<void>,
): Promise<ImportSummary | null> {
  return runExclusively(handle, "first-load", async () => {
    if ((await countModels(handle.db)) > 0) return null;
    await beforeLoading?.();
    return importPaths(handle, paths, opts);
  });
}

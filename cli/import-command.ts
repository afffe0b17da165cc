import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { openMigratedDatabase } from "#app/db/migrate.server.ts";
import { type ImportSummary, importPaths } from "#app/import/importer.server.ts";
import { ImportFileError } from "#app/import/read-sources.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { closeTemplateValidator, loadTemplateValidator } from "#cli/template-validator.ts";
import { createProgressReporter, formatSummary } from "#cli/progress.ts";

const DATE_IN_NAME = /(\d{4}-\d{2}-\d{2})/;
const calendarDate = z.iso.date();

/** A dump named like `hub-models-2024-07-11.jsonl.gz` carries counts from that day, not live ones. */
export function statsDateFor(file: string, opts: { statsAsOf?: string; live: boolean }): string | null {
  if (opts.live) return null;
  if (opts.statsAsOf) return opts.statsAsOf;
  return DATE_IN_NAME.exec(path.basename(file))?.[1] ?? null;
}

export async function runImport(
  paths: string[],
  opts: { statsAsOf?: string; live: boolean; batch?: number; quiet?: boolean },
): Promise<number> {
  if (!paths.length) {
    console.error("Usage: modelyard import <path>...  (a .jsonl/.json/.gz file, a folder of <org>__<name>.md cards, or a model folder)");
    return 2;
  }
  // A calendar date, not just its shape: '2024-13-45' reached the trending score as NaN, and the
  // import stopped on its first batch with the database's "NOT NULL constraint failed".
  if (opts.statsAsOf && !calendarDate.safeParse(opts.statsAsOf).success) {
    console.error(`--stats-as-of must be a date like 2024-07-11, got '${opts.statsAsOf}'`);
    return 2;
  }
  for (const p of paths) {
    const date = statsDateFor(p, opts);
    if (date !== null && !calendarDate.safeParse(date).success) {
      console.error(`${p}: its name holds '${date}', which is not a date, so it cannot say when the counts were taken. Pass --stats-as-of YYYY-MM-DD, or --live.`);
      return 2;
    }
  }
  if (opts.batch !== undefined && (!Number.isInteger(opts.batch) || opts.batch < 1 || opts.batch > 50_000)) {
    console.error("--batch must be a whole number from 1 to 50000");
    return 2;
  }
  const { handle } = await openMigratedDatabase(getEnv().DATABASE_URL);
  try {
    const validateTemplate = await loadTemplateValidator();
    const total: ImportSummary = { rows: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, source: "", elapsedMs: 0, rejections: [] };
    // A file that cannot be read stops only itself, as a bad row does: the others are imported,
    // and the summary and the exit code say which were not. Before, the first such file ended the
    // command with no summary of the files before it, which had landed, and none of those after.
    const failed: ImportFileError[] = [];
    for (const p of paths) {
      const progress = createProgressReporter(process.stderr, (fields, message) => log().info(fields, message));
      let s: ImportSummary;
      try {
        s = await importPaths(handle, [p], {
          statsAsOf: statsDateFor(p, opts),
          batchSize: opts.batch,
          onProgress: opts.quiet ? undefined : (p) => progress.update(p),
          validateTemplate,
        }).finally(() => progress.done());
      } catch (e) {
        if (!(e instanceof ImportFileError)) throw e;
        failed.push(e);
        continue;
      }
      for (const k of ["rows", "inserted", "updated", "unchanged", "rejected", "elapsedMs"] as const) total[k] += s[k];
      total.rejections.push(...s.rejections);
    }
    if (failed.length === paths.length && failed.length === 1) {
      console.error(`Import failed: ${failed[0]!.message}`);
      return 1;
    }
    console.log(formatSummary(total));
    if (total.rejections.length > 200) {
      const dir = path.resolve("data");
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `import-rejects-${new Date().toISOString().replace(/[:.]/g, "-")}.txt`);
      fs.writeFileSync(file, total.rejections.map((r) => `${r.source}:${r.line}${r.id ? ` (${r.id})` : ""}: ${r.reason}`).join("\n") + "\n");
      console.log(`Full list of rejected rows: ${file}`);
    }
    if (failed.length) {
      console.error(`Not imported (${failed.length} of ${paths.length} paths; the summary above counts the others):`);
      for (const e of failed) console.error(`  ${e.message}`);
      return 1;
    }
    return 0;
  } finally {
    await closeTemplateValidator();
    await handle.close();
  }
}

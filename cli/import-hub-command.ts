import { openMigratedDatabase } from "#app/db/migrate.server.ts";
import { HubFetchError, createHubClient } from "#app/import/hub-client.server.ts";
import { importItems } from "#app/import/importer.server.ts";
import type { SourceItem } from "#app/import/read-sources.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { formatSummary } from "#cli/progress.ts";
import { closeTemplateValidator, loadTemplateValidator } from "#cli/template-validator.ts";

/** Long enough for a large repository's record on a slow link; the page's deadline is for visitors, not this. */
const PER_MODEL_TIMEOUT_MS = 60_000;

/**
 * `modelyard import --hub <id>...`: each model's full record and README from the Hub, through the
 * Hub client live details use, imported as a live record (today's counts, no snapshot date).
 * A model the Hub cannot give is reported and skipped; the exit code is 1 if any was.
 */
export async function runHubImport(ids: string[]): Promise<number> {
  if (!ids.length) {
    console.error("Usage: modelyard import --hub <org/name>...");
    return 2;
  }
  const env = getEnv();
  const client = createHubClient({ hubUrl: env.MODELYARD_HUB_URL, override: env.MODELYARD_UPSTREAM_OVERRIDE ?? null });
  const failed: string[] = [];
  const { handle } = await openMigratedDatabase(env.DATABASE_URL);
  try {
    const items = (async function* (): AsyncGenerator<SourceItem> {
      let line = 0;
      for (const id of ids) {
        line++;
        try {
          const value = await client.fetchModel(id, { withReadme: true, signal: AbortSignal.timeout(PER_MODEL_TIMEOUT_MS) });
          yield { kind: "record", source: "hub", line, value };
        } catch (e) {
          if (!(e instanceof HubFetchError)) throw e;
          failed.push(`${id}: ${e.message}`);
        }
      }
    })();
    const summary = await importItems(handle, items, { statsAsOf: null, validateTemplate: await loadTemplateValidator() });
    console.log(formatSummary(summary));
    for (const f of failed) console.error(`Not imported: ${f}`);
    return failed.length ? 1 : 0;
  } finally {
    await closeTemplateValidator();
    await handle.close();
  }
}

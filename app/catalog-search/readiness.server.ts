/**
 * GET /readyz's checks: the database answers, every migration this build knows is applied, the
 * catalogue holds models, and the listing index of the current generation is built (while it
 * builds, the database answers listings: a warn, not a fail). Shutting down is a fail, so a load
 * balancer stops sending traffic before the listener closes (cli/serve-command.ts).
 */
import { listingIndexState } from "#app/catalog-search/index/background.server.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { pendingMigrations } from "#app/db/migrate.server.ts";
import { getCatalogueGeneration, pingDatabase } from "#app/db/queries/meta.server.ts";
import { hasModels } from "#app/db/queries/stats.server.ts";
import { drainingSinceTime, type HealthAnswer, type HealthCheck, overallStatus } from "#app/utils/health.server.ts";

export interface ReadinessOptions {
  /** An empty catalogue was asked for (MODELYARD_SKIP_BUNDLED): a warn rather than a fail. */
  emptyAllowed: boolean;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : "unknown error";
}

export async function readiness(handle: DatabaseHandle, options: ReadinessOptions): Promise<HealthAnswer> {
  const time = new Date().toISOString();
  const checks: Record<string, HealthCheck[]> = {};
  const draining = drainingSinceTime();
  checks["server:shutdown"] = [
    draining === null ? { status: "pass", componentType: "system", observedValue: false, time } : { status: "fail", componentType: "system", observedValue: true, output: `Shutting down since ${draining}.`, time },
  ];

  const started = performance.now();
  try {
    await pingDatabase(handle.db);
  } catch (error) {
    checks["database:responseTime"] = [{ status: "fail", componentType: "datastore", output: `The ${handle.dialect} database does not answer: ${reason(error)}`, time }];
    return { status: "fail", description: "Modelyard readiness", checks };
  }
  checks["database:responseTime"] = [{ status: "pass", componentType: "datastore", observedValue: Math.round((performance.now() - started) * 10) / 10, observedUnit: "ms", time }];

  const pending = await pendingMigrations(handle);
  checks["migrations:pending"] = [
    pending.length === 0
      ? { status: "pass", componentType: "datastore", observedValue: 0, time }
      : { status: "fail", componentType: "datastore", observedValue: pending.length, output: `Not applied: ${pending.join(", ")}. Run \`modelyard migrate\`.`, time },
  ];

  if (pending.length) return { status: "fail", description: "Modelyard readiness", checks };

  const loaded = await hasModels(handle.db);
  checks["catalogue:loaded"] = [
    loaded
      ? { status: "pass", componentType: "component", observedValue: true, time }
      : { status: options.emptyAllowed ? "warn" : "fail", componentType: "component", observedValue: false, output: "The catalogue holds no models yet.", time },
  ];

  const generation = await getCatalogueGeneration(handle.db);
  const index = listingIndexState(handle, generation);
  checks["listing-index:generation"] = [
    index.state === "building"
      ? { status: "warn", componentType: "component", observedValue: index.generation ?? 0, output: `The listing index of catalogue generation ${generation} is being built; the database answers listings meanwhile.`, time }
      : { status: "pass", componentType: "component", observedValue: index.generation, ...(index.state === "unindexable" ? { output: "Row ids too sparse to index; the database answers listings." } : {}), time },
  ];
  return { status: overallStatus(checks), description: "Modelyard readiness", checks };
}

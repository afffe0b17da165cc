import { readiness } from "#app/catalog-search/readiness.server.ts";
import { getDb } from "#app/db/db.server.ts";
import { getEnv } from "#app/utils/env.server.ts";
import { healthResponse } from "#app/utils/health.server.ts";

/** Readiness: 200 when this instance should get traffic (pass or warn), 503 when not (ADR 0041). */
export async function loader() {
  return healthResponse(await readiness(getDb(), { emptyAllowed: getEnv().MODELYARD_SKIP_BUNDLED }));
}

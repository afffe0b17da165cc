/** The process-wide gateway, built on first use from process.env and the app's database. */
import { getDb } from "#app/db/db.server.ts";
import { databaseCatalog } from "#app/inference/catalog-source.server.ts";
import { createInferenceGateway, type InferenceGateway } from "#app/inference/gateway.server.ts";
import { gatewayLabelSets } from "#app/inference/resolve-target.server.ts";
import { log } from "#app/utils/logger.server.ts";
import { gatewayObserver } from "#app/utils/metrics.server.ts";

let gateway: InferenceGateway | undefined;

export function getInferenceGateway(): InferenceGateway {
  gateway ??= createInferenceGateway({ catalog: databaseCatalog(getDb), env: process.env, database: () => getDb().db, logFields: (fields) => log().info(fields, "inference"), metrics: gatewayObserver(gatewayLabelSets(process.env)) });
  return gateway;
}

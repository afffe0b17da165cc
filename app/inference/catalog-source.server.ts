/**
 * The gateway's view of the catalogue: models by id (briefly cached, since every call and every
 * library Hub lookup asks) and the /api/tasks payload.
 */
import { getApiTasksPayload } from "#app/task-guides/tasks.server.ts";
import type { CatalogModel } from "#app/catalog/model-record.ts";
import type { DatabaseHandle } from "#app/db/client.server.ts";
import { getModelById } from "#app/db/queries/models.server.ts";
import type { GatewayCatalog } from "#app/inference/hub-lookups.server.ts";
import { Lru } from "#app/utils/lru.ts";

export function databaseCatalog(getHandle: () => DatabaseHandle, opts: { ttlMs?: number; maxEntries?: number } = {}): GatewayCatalog {
  const ttlMs = opts.ttlMs ?? 30_000;
  const maxEntries = opts.maxEntries ?? 1_000;
  const cache = new Lru<{ at: number; model: Promise<CatalogModel | null> }>({ maxEntries });
  return {
    getModel(id: string) {
      const now = Date.now();
      const hit = cache.get(id);
      if (hit && now - hit.at < ttlMs) return hit.model;
      const model = getModelById(getHandle().db, id);
      cache.set(id, { at: now, model });
      model.catch(() => cache.delete(id));
      return model;
    },
    tasksPayload: async () => getApiTasksPayload(),
  };
}

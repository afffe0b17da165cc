import { HUB_SORTS, toHubListItem } from "#app/catalog/hub-api.ts";
import type { ListParams } from "#app/catalog-search/views/hub-params.server.ts";
import type { HubListPage } from "#app/catalog-search/answer-types.ts";
import { search } from "#app/catalog-search/search.server.ts";
import { type CatalogSnapshot, remember } from "#app/catalog-search/snapshot.server.ts";
import { getListExtras } from "#app/db/queries/models.server.ts";

/**
 * One page of the Hub-shaped model list, kept per catalogue generation (ADR 0025). Clients poll
 * the same few lists; a page is a pure function of the parameters and the data, and every import
 * batch that changes data bumps the generation, so an answer is reused until the data changes.
 */
export function hubListPage(snapshot: CatalogSnapshot, p: ListParams): Promise<HubListPage> {
  return remember(snapshot, `hub\u0000${JSON.stringify(p)}`, () => readHubListPage(snapshot, p), (page) => page.body.byteLength);
}

async function readHubListPage(snapshot: CatalogSnapshot, p: ListParams): Promise<HubListPage> {
  const page = await search(snapshot, p.filters, { sort: HUB_SORTS[p.sort], ascending: p.ascending, offset: 0, limit: p.limit, after: p.cursor, counts: "none" });
  const wantsExtras = p.full || p.cardData || p.config || p.expand.some((f) => ["sha", "siblings", "cardData", "config"].includes(f));
  const extras = wantsExtras ? await getListExtras(snapshot.handle.db, page.models.map((m) => m.id)) : null;
  const items = page.models.map((m) =>
    toHubListItem(m, { full: p.full, cardData: p.cardData, config: p.config, expand: p.expand, extras: extras?.get(m.id) ?? null }),
  );
  return { body: Buffer.from(JSON.stringify(items)), next: page.next };
}

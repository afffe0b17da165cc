import { renderToStaticMarkup } from "react-dom/server";
import type { CatalogModelSummary } from "#app/catalog/model-record.ts";
import type { SortKey } from "#app/catalog/sort-keys.ts";
import { ModelRow } from "#app/catalog-search/views/model-row.tsx";
import { Lru } from "#app/utils/lru.ts";

// Keyed by the rows themselves, so an entry cannot outlive the data it shows (ADR 0025).
const rendered = new Lru<string>({ maxBytes: 8 * 1024 * 1024, sizeOf: (html) => html.length * 2 });

/**
 * A listing page's result list as static markup, rendered once per page of rows and shared by the
 * requests that show it. Rows dated by age ("Updated 3 hours ago", live models) are rendered again
 * each minute, so an age is never older than the clock allows.
 */
export function modelRowsHtml(models: CatalogModelSummary[], spaces: Record<string, number>, sort: SortKey, now = Date.now()): string {
  const live = models.some((m) => !m.statsAsOf);
  const key = JSON.stringify([live ? Math.floor(now / 60_000) : 0, sort === "created", models, models.map((m) => spaces[m.id] ?? 0)]);
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const html = renderToStaticMarkup(
    <ul className="space-y-2" data-testid="model-list">
      {models.map((m) => (
        <ModelRow key={m.id} model={m} spaces={spaces[m.id] ?? 0} now={now} sort={sort} />
      ))}
    </ul>,
  );
  rendered.set(key, html);
  return html;
}

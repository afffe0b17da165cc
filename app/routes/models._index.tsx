import type { Route } from "./+types/models._index";
import { GeneralErrorBoundary } from "#app/components/general-error-boundary.tsx";
import { ModelRow } from "#app/components/model-row.tsx";
import { getDb } from "#app/db/db.server.ts";
import { type ListSort, listModelPage } from "#app/db/queries/models.server.ts";
import { countModels } from "#app/db/queries/stats.server.ts";
import { formatNumber } from "#app/utils/format.ts";

const PAGE_SIZE = 30;
const SORTS: ListSort[] = ["trending", "downloads", "likes", "created", "updated"];

export const meta: Route.MetaFunction = () => [{ title: "Models · Modelyard" }];

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const sortParam = url.searchParams.get("sort");
  const sort: ListSort = SORTS.includes(sortParam as ListSort) ? (sortParam as ListSort) : "trending";
  const page = Math.max(1, Math.min(1000, Number.parseInt(url.searchParams.get("p") ?? "1", 10) || 1));
  const { db } = getDb();
  const [models, total] = await Promise.all([
    listModelPage(db, { sort, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    countModels(db),
  ]);
  return { models, total, page, sort };
}

export default function Models({ loaderData }: Route.ComponentProps) {
  const { models, total, page, sort } = loaderData;
  const pages = Math.ceil(total / PAGE_SIZE);
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-bold">Models</h1>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{formatNumber(total)} models</p>
      <ul className="mt-6 space-y-2">
        {models.map((m) => (
          <ModelRow key={m.id} model={m} />
        ))}
      </ul>
      <nav aria-label="Pagination" className="mt-6 flex justify-between text-sm">
        {page > 1 ? <a href={`?sort=${sort}&p=${page - 1}`}>← Previous</a> : <span />}
        {page < pages ? <a href={`?sort=${sort}&p=${page + 1}`}>Next →</a> : <span />}
      </nav>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

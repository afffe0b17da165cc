import { Link } from "react-router";
import type { Route } from "./+types/spaces.$org.$name";
import { ErrorPanel, GeneralErrorBoundary, notFound } from "#app/ui/general-error-boundary.tsx";
import { ModelRow } from "#app/catalog-search/views/model-row.tsx";
import { TaskChip } from "#app/ui/task-chip.tsx";
import { getDb } from "#app/db/db.server.ts";
import { ensureTaskSpaces, getSpace } from "#app/db/queries/spaces.server.ts";
import { formatNumber } from "#app/utils/format.ts";

export const meta: Route.MetaFunction = ({ params }) => [{ title: `${params.org}/${params.name} · Spaces · Modelyard` }];

export async function loader({ params }: Route.LoaderArgs) {
  const id = `${params.org}/${params.name}`;
  const { db } = getDb();
  await ensureTaskSpaces(db);
  const space = await getSpace(db, id);
  if (!space) throw notFound(`No Space “${id}” is known to this catalogue.`);
  return { space };
}

export default function SpacePage({ loaderData }: Route.ComponentProps) {
  const { space } = loaderData;
  const url = `https://huggingface.co/spaces/${space.id}`;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <nav aria-label="Breadcrumb" className="text-sm text-gray-600 dark:text-gray-400">
        <Link to="/spaces" className="hover:underline">
          Spaces
        </Link>{" "}
        / <span>{space.author}</span>
      </nav>
      <h1 className="mt-2 font-mono text-2xl font-bold break-all">{space.id}</h1>
      <div className="mt-4 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 dark:border-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
        <p>
          This Space is a demo hosted on the Hugging Face Hub, not on this server. It lives at{" "}
          <a href={url} rel="noopener noreferrer" className="font-mono font-medium break-all underline" data-testid="space-external">
            {url}
          </a>
          .
        </p>
        <a
          href={url}
          rel="noopener noreferrer"
          className="mt-3 inline-block rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500"
        >
          Open the Space on huggingface.co ↗
        </a>
      </div>
      {space.tasks.length > 0 && (
        <section className="mt-8">
          <h2 className="text-lg font-semibold">Recommended by task guides</h2>
          <ul className="mt-3 space-y-2">
            {space.tasks.map((t) => (
              <li key={t.task} className="flex flex-wrap items-center gap-2 text-sm">
                <TaskChip task={t.task} asLink={false} />
                <Link to={`/tasks/${t.task}`} className="text-indigo-700 hover:underline dark:text-indigo-300">
                  task guide
                </Link>
                {t.description && <span className="text-gray-700 dark:text-gray-300">— {t.description}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section className="mt-8">
        <h2 className="text-lg font-semibold">Models it uses</h2>
        {space.modelCount === 0 ? (
          <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">No catalogue model lists this Space.</p>
        ) : (
          <>
            <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">
              {space.modelCount === 1 ? "1 model lists this Space." : `${formatNumber(space.modelCount)} models list this Space.`}
              {space.models.length < space.modelCount && ` ${formatNumber(space.modelCount - space.models.length)} of them are not in the catalogue or not shown.`}
            </p>
            <ul className="mt-3 space-y-2" data-testid="space-models">
              {space.models.map((m) => (
                <ModelRow key={m.id} model={m} />
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ message }) => (
          <ErrorPanel title="Space not found" message={message}>
            <Link to="/spaces" className="mt-6 inline-block text-indigo-700 hover:underline dark:text-indigo-300">
              Browse all Spaces
            </Link>
          </ErrorPanel>
        ),
      }}
    />
  );
}

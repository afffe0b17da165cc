import type { Route } from "./+types/$org.$name";
import { ErrorPanel, GeneralErrorBoundary } from "#app/components/general-error-boundary.tsx";
import { TaskChip } from "#app/components/task-chip.tsx";
import { loadModelPage } from "#app/routes/model-page.server.ts";
import { downloadsLabel, formatBytes, formatDate, formatNumber, formatParams } from "#app/utils/format.ts";

export const meta: Route.MetaFunction = ({ data }) => {
  if (!data) return [{ title: "Model not found · Modelyard" }];
  const m = data.model;
  const description = `${m.id}${m.pipelineTag ? ` — a ${m.pipelineTag} model` : ""}${m.libraryName ? ` for ${m.libraryName}` : ""}.`;
  return [
    { title: `${m.id} · Modelyard` },
    { name: "description", content: description },
    { property: "og:title", content: m.id },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
  ];
};

export async function loader({ params }: Route.LoaderArgs) {
  return loadModelPage(`${params.org}/${params.name}`);
}

export default function ModelPage({ loaderData }: Route.ComponentProps) {
  const { model } = loaderData;
  const params = formatParams(model.params);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <header>
        <h1 className="font-mono text-2xl font-bold break-all">{model.id}</h1>
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          {model.pipelineTag && <TaskChip task={model.pipelineTag} size="md" />}
          {model.libraryName && <span className="rounded-md bg-gray-100 px-2 py-1 dark:bg-gray-800">{model.libraryName}</span>}
          {model.license && <span className="rounded-md bg-gray-100 px-2 py-1 dark:bg-gray-800">License: {model.license}</span>}
          {model.gated && <span className="rounded-md bg-amber-100 px-2 py-1 text-amber-900 dark:bg-amber-900 dark:text-amber-100">Gated</span>}
        </div>
        <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-gray-700 dark:text-gray-300">
          <div>
            <dt className="inline text-gray-500 dark:text-gray-400">{downloadsLabel(model.statsAsOf)}: </dt>
            <dd className="inline font-medium">{formatNumber(model.downloads)}</dd>
          </div>
          <div>
            <dt className="inline text-gray-500 dark:text-gray-400">Likes: </dt>
            <dd className="inline font-medium">{formatNumber(model.likes)}</dd>
          </div>
          {params && (
            <div>
              <dt className="inline text-gray-500 dark:text-gray-400">Parameters: </dt>
              <dd className="inline font-medium">{params}</dd>
            </div>
          )}
          {model.createdAt && (
            <div>
              <dt className="inline text-gray-500 dark:text-gray-400">Created: </dt>
              <dd className="inline font-medium">{formatDate(model.createdAt)}</dd>
            </div>
          )}
        </dl>
      </header>
      <section aria-labelledby="files-heading" className="mt-8">
        <h2 id="files-heading" className="text-lg font-semibold">
          Files
        </h2>
        {model.siblings.length ? (
          <ul className="mt-3 divide-y divide-gray-200 rounded-lg border border-gray-200 text-sm dark:divide-gray-800 dark:border-gray-800">
            {model.siblings.map((s) => (
              <li key={s.rfilename} className="flex justify-between px-3 py-1.5 font-mono">
                <span className="truncate">{s.rfilename}</span>
                <span className="text-gray-500">{formatBytes(s.size) ?? ""}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">The catalogue has no file list for this model.</p>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: ({ message }) => {
          const [text, ...suggestions] = message.split("\n");
          return (
            <ErrorPanel title="Model not found" message={text ?? ""}>
              {suggestions.length > 0 && (
                <div className="mt-6">
                  <p className="text-sm text-gray-600 dark:text-gray-400">Did you mean:</p>
                  <ul className="mt-2 space-y-1">
                    {suggestions.map((id) => (
                      <li key={id}>
                        <a className="font-mono text-indigo-700 hover:underline dark:text-indigo-300" href={`/${id}`}>
                          {id}
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </ErrorPanel>
          );
        },
      }}
    />
  );
}

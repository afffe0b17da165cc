import { PIPELINE_DATA } from "@huggingface/tasks";
import type { Route } from "./+types/tasks.$task";
import { GeneralErrorBoundary } from "#app/components/general-error-boundary.tsx";
import { getTaskInfo, isPipelineType } from "#app/catalog/task-colors.ts";

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.task.name ?? "Task"} · Modelyard` }];

export function loader({ params }: Route.LoaderArgs) {
  if (!isPipelineType(params.task)) throw new Response(`There is no task '${params.task}'.`, { status: 404 });
  return { task: getTaskInfo(params.task), known: Object.keys(PIPELINE_DATA).length };
}

export default function Task({ loaderData }: Route.ComponentProps) {
  const { task } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <p className="text-sm text-gray-600 dark:text-gray-400">{task.modalityLabel}</p>
      <h1 className="text-3xl font-bold">{task.name}</h1>
      <a className="mt-4 inline-block text-indigo-700 hover:underline dark:text-indigo-300" href={`/models?pipeline_tag=${task.id}`}>
        Browse {task.name} models
      </a>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}

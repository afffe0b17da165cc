import { MODALITIES, MODALITY_LABELS, PIPELINE_DATA } from "@huggingface/tasks";
import type { Route } from "./+types/tasks._index";
import { GeneralErrorBoundary } from "#app/components/general-error-boundary.tsx";
import { TaskChip } from "#app/components/task-chip.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Tasks · Modelyard" }];

export default function Tasks() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-bold">Tasks</h1>
      {MODALITIES.map((mod) => (
        <section key={mod} className="mt-6">
          <h2 className="font-semibold">{MODALITY_LABELS[mod]}</h2>
          <div className="mt-2 flex flex-wrap gap-2">
            {Object.entries(PIPELINE_DATA)
              .filter(([, d]) => d.modality === mod)
              .map(([id]) => (
                <a key={id} href={`/tasks/${id}`}>
                  <TaskChip task={id} asLink={false} />
                </a>
              ))}
          </div>
        </section>
      ))}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
